// A text every match of an RE2 pattern contains (the longest run of literal characters outside
// any class or quantifier, at the top level or in a group there once or more), so a test of that text, a
// fraction of a pattern's cost, can stand for the pattern wherever the text is missing: the
// DuckDB engine's SQL tests `contains` first (decider.ts), and the classing of distinct values
// asks a pattern only about the values holding its text (literal-index.ts). Undefined when no
// such text is sure: an alternation at the top level, a flag group (`(?i)` changes what the rest
// matches), or any syntax not read here. The patterns given are RE2 forms (evaluate/linear-pattern.ts
// writes every literal other than a letter or a digit as `\x{…}`); anything else is refused.

/** Escapes of RE2 that match one character of a class, or none (an assertion): no literal. */
const CLASS_ESCAPES = new Set(['d', 'D', 's', 'S', 'w', 'W', 'b', 'B', 'A', 'z']);
const COUNTED = /^\{[0-9]+(?:,[0-9]*)?\}/;

/** One piece of a pattern: a literal character, or any other atom (undefined; a group's body), and where the next begins. */
type Atom = { literal: string | undefined; next: number; body?: string } | undefined;

export function requiredLiteral(pattern: string): string | undefined {
  const runs: string[] = [];
  let run = '';
  for (let at = 0; at < pattern.length;) {
    if (pattern[at] === '|') return undefined;
    const atom = atomAt(pattern, at);
    if (atom === undefined) return undefined;
    const quantifier = quantifierAt(pattern, atom.next);
    if (quantifier === undefined) return undefined;
    if (atom.literal !== undefined && quantifier.end === atom.next) {
      run += atom.literal;
    } else {
      runs.push(run);
      // A group there once or more: what every match of its body holds, every match holds.
      if (atom.body !== undefined && (quantifier.end === atom.next || quantifier.oneOrMore)) runs.push(requiredLiteral(atom.body) ?? '');
      // A literal repeated one or more times: its last repetition is followed by what follows.
      run = quantifier.oneOrMore && atom.literal !== undefined ? atom.literal : '';
    }
    at = quantifier.end;
  }
  runs.push(run);
  const longest = runs.reduce((best, candidate) => (candidate.length > best.length ? candidate : best), '');
  return longest === '' ? undefined : longest;
}

function atomAt(pattern: string, at: number): Atom {
  const char = pattern[at] as string;
  switch (char) {
    case '\\': return escapeAt(pattern, at);
    case '[': {
      const end = classEnd(pattern, at);
      return end === undefined ? undefined : { literal: undefined, next: end };
    }
    case '(': {
      const end = groupEnd(pattern, at);
      return end === undefined ? undefined : { literal: undefined, next: end, body: pattern.slice(pattern[at + 1] === '?' ? at + 3 : at + 1, end - 1) };
    }
    case '^': case '$': case '.': return { literal: undefined, next: at + 1 };
    case ')': case '*': case '+': case '?': case '{': case '}': case ']': return undefined;
    default: return { literal: char, next: at + 1 };
  }
}

function escapeAt(pattern: string, at: number): Atom {
  const escaped = pattern[at + 1] ?? '';
  const hex = /^\\x\{([0-9a-fA-F]{1,6})\}/.exec(pattern.slice(at, at + 11));
  if (hex !== null) {
    const code = Number.parseInt(hex[1] as string, 16);
    return code > 0x10ffff ? undefined : { literal: String.fromCodePoint(code), next: at + hex[0].length };
  }
  if (CLASS_ESCAPES.has(escaped)) return { literal: undefined, next: at + 2 };
  // An escaped punctuation character is itself; any other escape (\Q, \p, \x41, \1…) is not read here.
  return /^[!-/:-@[-`{-~]$/.test(escaped) ? { literal: escaped, next: at + 2 } : undefined;
}

/** The end (exclusive) of the class opening at `at`, its escapes and `[:name:]` items skipped. */
function classEnd(pattern: string, at: number): number | undefined {
  let next = at + 1;
  if (pattern[next] === '^') next += 1;
  // A `]` first in the class is one of its characters.
  if (pattern[next] === ']') next += 1;
  while (next < pattern.length) {
    const char = pattern[next];
    if (char === ']') return next + 1;
    if (char === '\\') next += 2;
    else if (char === '[' && pattern[next + 1] === ':') {
      const close = pattern.indexOf(':]', next + 2);
      if (close < 0) return undefined;
      next = close + 2;
    } else next += 1;
  }
  return undefined;
}

/** The end (exclusive) of the group opening at `at`: only `(` and `(?:`, nested groups and classes skipped. */
function groupEnd(pattern: string, at: number): number | undefined {
  if (pattern[at + 1] === '?' && pattern[at + 2] !== ':') return undefined;
  let depth = 0;
  for (let next = at; next < pattern.length;) {
    const char = pattern[next];
    if (char === '\\') next += 2;
    else if (char === '[') {
      const end = classEnd(pattern, next);
      if (end === undefined) return undefined;
      next = end;
    } else {
      if (char === '(') {
        if (pattern[next + 1] === '?' && pattern[next + 2] !== ':') return undefined;
        depth += 1;
      } else if (char === ')') {
        depth -= 1;
        if (depth === 0) return next + 1;
      }
      next += 1;
    }
  }
  return undefined;
}

/** The quantifier at `at` (none: end = at), a lazy `?` after it included; undefined when unread. */
function quantifierAt(pattern: string, at: number): { end: number; oneOrMore: boolean } | undefined {
  const char = pattern[at];
  let end = at;
  if (char === '*' || char === '?' || char === '+') end = at + 1;
  else if (char === '{') {
    const counted = COUNTED.exec(pattern.slice(at, at + 24));
    if (counted === null) return undefined;
    end = at + counted[0].length;
  }
  if (end > at && pattern[end] === '?') end += 1;
  return { end, oneOrMore: char === '+' };
}
