// The character level of plain-yaml.ts: where lines and comments end, blanks, indicators,
// and the scalars (plain and quoted) both block and flow collections are made of. Anything
// outside the subset throws OutsideSubset. It scans character codes rather than one-character
// strings: a plan runs it once per rule file, mostly before the JIT has warmed up, and simple
// integer loops are what is fast then.

/** Thrown (and caught by parsePlainYaml) when the text leaves the subset. */
export class OutsideSubset extends Error {}

/**
 * Plain scalars that `yaml` (YAML 1.2 core schema) reads as null, a boolean or a number: the
 * tests of its core schema's tags, joined. Written out so that reading a clean file never loads
 * `yaml`; a test checks that it is still exactly what `yaml` uses.
 */
export const NON_STRING_PLAIN =
  /(?:^(?:~|[Nn]ull|NULL)?$)|(?:^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$)|(?:^0o[0-7]+$)|(?:^[-+]?[0-9]+$)|(?:^0x[0-9a-fA-F]+$)|(?:^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$)|(?:^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$)|(?:^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$)/;
/** Every plain scalar NON_STRING_PLAIN matches starts with one of these (nulls, booleans, numbers, .inf, .nan). */
const MAY_BE_NON_STRING = /^[-+.~0-9nNtTfF]|^$/;

/** Characters the subset leaves to `yaml`: tabs, a CR not ending a line, control and Unicode line-break characters, BOMs. */
// eslint-disable-next-line no-control-regex
export const OUTSIDE_CHARACTERS = /[\t\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]|\r(?!\n)/;

export const enum Ch {
  LF = 10,
  CR = 13,
  Space = 32,
  Bang = 33,
  DoubleQuote = 34,
  Hash = 35,
  Percent = 37,
  Ampersand = 38,
  SingleQuote = 39,
  Star = 42,
  Comma = 44,
  Dash = 45,
  Dot = 46,
  Colon = 58,
  Greater = 62,
  Question = 63,
  At = 64,
  OpenBracket = 91,
  Backslash = 92,
  CloseBracket = 93,
  Backtick = 96,
  OpenBrace = 123,
  Pipe = 124,
  CloseBrace = 125,
}

/** A space, a line break, or past the end (NaN). */
export function isBlank(code: number): boolean {
  return code === Ch.Space || code === Ch.LF || code === Ch.CR || Number.isNaN(code);
}

function isFlowIndicator(code: number): boolean {
  return code === Ch.Comma || code === Ch.OpenBracket || code === Ch.CloseBracket || code === Ch.OpenBrace || code === Ch.CloseBrace;
}

/** YAML's c-indicator: characters that may not start a plain scalar (- ? : may, before a safe character). */
function isIndicator(code: number): boolean {
  switch (code) {
    case Ch.Dash: case Ch.Question: case Ch.Colon: case Ch.Comma: case Ch.OpenBracket: case Ch.CloseBracket:
    case Ch.OpenBrace: case Ch.CloseBrace: case Ch.Hash: case Ch.Ampersand: case Ch.Star: case Ch.Bang:
    case Ch.Pipe: case Ch.Greater: case Ch.SingleQuote: case Ch.DoubleQuote: case Ch.Percent: case Ch.At: case Ch.Backtick:
      return true;
    default:
      return false;
  }
}

export class Scanner {
  protected pos = 0;
  protected lineStart = 0;

  constructor(protected readonly text: string) {}

  /** A plain scalar inside a flow collection: it ends at a flow indicator or at `: `; a comment or line end leaves the subset. */
  protected flowPlain(): string {
    this.checkPlainStart(true);
    const text = this.text;
    const start = this.pos;
    let i = start;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === Ch.LF || c === Ch.CR || Number.isNaN(c)) throw new OutsideSubset();
      if (isFlowIndicator(c)) break;
      if (c === Ch.Colon) {
        const next = text.charCodeAt(i + 1);
        if (isBlank(next) || isFlowIndicator(next)) break;
      }
      if (c === Ch.Hash && text.charCodeAt(i - 1) === Ch.Space) throw new OutsideSubset();
      i += 1;
    }
    this.pos = this.trimEnd(start, i);
    return this.plainString(start, this.pos);
  }

  /** A single- or double-quoted scalar on one line (double quotes with JSON's escapes only). */
  protected quoted(): string {
    const text = this.text;
    const start = this.pos;
    const quote = text.charCodeAt(start);
    let i = start + 1;
    let escaped = false;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === Ch.LF || c === Ch.CR || Number.isNaN(c)) throw new OutsideSubset();
      if (c === quote) {
        if (quote === Ch.DoubleQuote || text.charCodeAt(i + 1) !== Ch.SingleQuote) break;
        escaped = true; // '' in single quotes
        i += 2;
      } else if (c === Ch.Backslash && quote === Ch.DoubleQuote) {
        escaped = true;
        i += 2;
      } else i += 1;
    }
    this.pos = i + 1;
    if (!escaped) return text.slice(start + 1, i);
    if (quote === Ch.SingleQuote) return text.slice(start + 1, i).replaceAll("''", "'");
    return jsonString(text.slice(start, i + 1));
  }

  protected plainString(start: number, end: number): string {
    const value = this.text.slice(start, end);
    if (MAY_BE_NON_STRING.test(value) && (value === '' || NON_STRING_PLAIN.test(value))) throw new OutsideSubset();
    return value;
  }

  /** YAML's rule for the first character of a plain scalar. */
  protected checkPlainStart(inFlow: boolean): void {
    const code = this.code(this.pos);
    if (!isIndicator(code)) return;
    const next = this.code(this.pos + 1);
    const safe = !isBlank(next) && !(inFlow && isFlowIndicator(next));
    if (!((code === Ch.Dash || code === Ch.Question || code === Ch.Colon) && safe)) throw new OutsideSubset();
  }

  /** Only spaces and a comment may follow a scalar or flow collection on its line. */
  protected endOfLine(): void {
    this.spaces();
    if (!this.atLineEnd()) throw new OutsideSubset();
  }

  protected atListEntry(): boolean {
    return this.code(this.pos) === Ch.Dash && isBlank(this.code(this.pos + 1));
  }

  /** At a line break, the end, or a comment (a `#` after a blank). */
  protected atLineEnd(): boolean {
    const code = this.code(this.pos);
    return isBlank(code) || (code === Ch.Hash && (this.pos === 0 || isBlank(this.code(this.pos - 1))));
  }

  protected code(i: number): number {
    return this.text.charCodeAt(i);
  }

  protected spaces(): void {
    while (this.text.charCodeAt(this.pos) === Ch.Space) this.pos += 1;
  }

  protected trimEnd(start: number, end: number): number {
    let i = end;
    while (i > start && this.text.charCodeAt(i - 1) === Ch.Space) i -= 1;
    return i;
  }

  /** `---` or `...` (three of `code`) at the start of a line, followed by a blank. */
  protected startsMarker(code: Ch.Dash | Ch.Dot): boolean {
    const { text, pos } = this;
    return pos === this.lineStart && text.charCodeAt(pos) === code && text.charCodeAt(pos + 1) === code &&
      text.charCodeAt(pos + 2) === code && isBlank(text.charCodeAt(pos + 3));
  }

  /** Skips the rest of the line (a comment at most: callers checked), blank lines and comment lines. */
  protected skipSeparation(): void {
    const text = this.text;
    for (;;) {
      this.spaces();
      const code = text.charCodeAt(this.pos);
      if (code === Ch.Hash) {
        const eol = text.indexOf('\n', this.pos);
        this.pos = eol === -1 ? text.length : eol;
      } else if (code === Ch.LF || code === Ch.CR) {
        this.pos += code === Ch.CR ? 2 : 1;
        this.lineStart = this.pos;
      } else return;
    }
  }

  /** To the next content; a document marker there would start or end a document: left to `yaml`. */
  protected toContent(): void {
    this.skipSeparation();
    if (this.startsMarker(Ch.Dash) || this.startsMarker(Ch.Dot)) throw new OutsideSubset();
  }
}

function jsonString(raw: string): string {
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'string') return value;
  } catch {
    // not one of JSON's escapes: `yaml` decides
  }
  throw new OutsideSubset();
}
