// A text every match of a JavaScript pattern (flags '') contains, so replay's rule index can
// select a `$re` rule only for requests whose value holds it (src/replay/rule-index.ts).
// Sound rather than complete: the longest run of plain characters outside any group, class,
// escape with a payload or quantified character; undefined when the pattern has a top-level
// alternation or no such run. JavaScript's syntax, not RE2's: `[]` is an empty class and `\]`
// inside a class is no end of it.

/** Characters that are never a literal of the pattern where they stand. */
const META = new Set(['.', '^', '$', '[', ']', '(', ')', '{', '}', '*', '+', '?', '\\', '|']);
const QUANTIFIER = new Set(['*', '+', '?', '{']);

export function patternLiteral(source: string): string | undefined {
  const runs = plainRuns(source);
  if (runs === undefined) return undefined;
  const longest = runs.reduce((best, run) => (run.length > best.length ? run : best), '');
  return longest === '' ? undefined : longest;
}

/**
 * The text every match starts with (the behaviour search splits rules by it, src/diff/
 * required-texts.ts): the run of plain characters right after a leading `^`, when the pattern
 * has no top-level alternation; undefined when there is none.
 */
export function patternStart(source: string): string | undefined {
  if (!source.startsWith('^')) return undefined;
  // The `^` ends the first run: the second is the one it anchors.
  const start = plainRuns(source)?.[1];
  return start === '' ? undefined : start;
}

/** The runs of plain characters in order, each ended by what is not one; undefined at a top-level `|`. */
function plainRuns(source: string): string[] | undefined {
  const runs: string[] = [''];
  const end = () => runs.push('');
  for (let at = 0; at < source.length;) {
    const char = source[at] as string;
    let literal: string | undefined;
    let next: number | undefined;
    if (char === '|') return undefined;
    if (char === '\\') [literal, next] = escape(source, at);
    else if (char === '[') next = classEnd(source, at);
    else if (char === '(') next = groupEnd(source, at);
    else if (char === '{') next = source.indexOf('}', at) + 1;
    else {
      next = at + 1;
      if (!META.has(char)) literal = char;
    }
    if (next === undefined || next <= at) return undefined;
    // A quantified character is optional or repeated: no part of a sure run.
    if (literal === undefined || QUANTIFIER.has(source[next] ?? '')) end();
    else runs[runs.length - 1] += literal;
    at = next;
  }
  return runs;
}

/** An escape at `at`: the character it stands for when it is one plain character, and where it ends. */
function escape(source: string, at: number): [string | undefined, number] {
  const escaped = source[at + 1];
  if (escaped === undefined) return [undefined, at];
  if (!/[A-Za-z0-9]/.test(escaped)) return [escaped, at + 2];
  // \xHH, \uHHHH, \cX, \1 or \012, \k<name>: the payload is no literal text of the match.
  const payload = { x: /^[0-9A-Fa-f]{0,2}/, u: /^[0-9A-Fa-f]{0,4}/, c: /^[A-Za-z]?/, k: /^(<[^>]*>)?/ }[escaped as 'x'];
  const rest = source.slice(at + 2);
  const skipped = payload !== undefined ? (payload.exec(rest)?.[0].length ?? 0) : /[0-9]/.test(escaped) ? (/^[0-9]*/.exec(rest)?.[0].length ?? 0) : 0;
  return [undefined, at + 2 + skipped];
}

/** Just after the class opened at `at` (JavaScript: `[]` and `[^]` end at their first `]`). */
export function classEnd(source: string, at: number): number | undefined {
  let index = source[at + 1] === '^' ? at + 2 : at + 1;
  for (; index < source.length; index++) {
    if (source[index] === '\\') index++;
    else if (source[index] === ']') return index + 1;
  }
  return undefined;
}

/** Just after the group opened at `at`, classes and escapes inside it skipped. */
export function groupEnd(source: string, at: number): number | undefined {
  let depth = 0;
  for (let index = at; index < source.length;) {
    const char = source[index];
    if (char === '\\') index += 2;
    else if (char === '[') {
      const end = classEnd(source, index);
      if (end === undefined) return undefined;
      index = end;
    } else {
      if (char === '(') depth++;
      else if (char === ')' && --depth === 0) return index + 1;
      index++;
    }
  }
  return undefined;
}
