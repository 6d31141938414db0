// The scalars of the plain-style reader (yaml-plain.ts): one-line double- and single-quoted
// scalars read with the `yaml` package's escapes, and plain scalars resolved under the core
// schema as the Document resolves them. Whatever this file does not read exactly (an unknown
// escape, a line break, a float...) throws `notPlain`, and the file goes to the Document.

/** Thrown inside the reader when the text leaves the plain style; never escapes it. */
class NotPlain extends Error {}
export const notPlain = new NotPlain();

// Plain scalars the core schema resolves to something other than a string.
const NULL = /^(?:~|[Nn]ull|NULL)$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const DECIMAL = /^[-+]?[0-9]{1,15}$/;
const OTHER_NUMBER = /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)$/;
const ESCAPES: Record<string, string> = { '0': '\0', a: '\x07', b: '\b', e: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', N: '\u0085', _: '\u00a0', L: '\u2028', P: '\u2029', ' ': ' ', '"': '"', '/': '/', '\\': '\\' };

export function doubleQuoted(text: string, q: number): { value: string; end: number } {
  let value = '';
  let p = q + 1;
  for (;;) {
    const c = text[p];
    if (c === undefined || c === '\n') throw notPlain;
    if (c === '"') return { value, end: p + 1 };
    if (c !== '\\') {
      value += c;
      p += 1;
      continue;
    }
    const e = text[p + 1] as string;
    const length = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
    if (length === 0) {
      const escaped = ESCAPES[e];
      if (escaped === undefined) throw notPlain;
      value += escaped;
      p += 2;
      continue;
    }
    const hex = text.slice(p + 2, p + 2 + length);
    const code = /^[0-9a-fA-F]+$/.test(hex) && hex.length === length ? parseInt(hex, 16) : Number.NaN;
    if (!(code <= 0x10ffff)) throw notPlain;
    value += String.fromCodePoint(code);
    p += 2 + length;
  }
}

export function singleQuoted(text: string, q: number): { value: string; end: number } {
  let value = '';
  let p = q + 1;
  for (;;) {
    const close = text.indexOf("'", p);
    const newline = text.indexOf('\n', p);
    if (close < 0 || (newline >= 0 && newline < close)) throw notPlain;
    value += text.slice(p, close);
    if (text[close + 1] !== "'") return { value, end: close + 1 };
    value += "'";
    p = close + 2;
  }
}

/** A plain scalar's value under the core schema, as the Document resolves it; others are the Document's. */
export function resolvePlain(text: string): unknown {
  const first = text[0] as string;
  // Most scalars start with a letter no null, boolean or number starts with: no pattern to run.
  if (!MAY_RESOLVE.has(first)) return text;
  if (NULL.test(text)) return null;
  if (BOOL.test(text)) return first === 't' || first === 'T';
  if (DECIMAL.test(text)) return Number(text);
  if (OTHER_NUMBER.test(text)) throw notPlain;
  return text;
}
const MAY_RESOLVE = new Set([...'~nNtTfF-+.0123456789']);
