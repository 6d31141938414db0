// A text every match of an RE2 pattern contains (the longest run of literal characters outside
// any group, class, alternation or quantifier), so the DuckDB engine can test `contains` first,
// a fraction of RE2's cost, and run the pattern only on the texts that hold it. Undefined when no
// such text is sure: the pattern then runs on every text, as before.

/** Characters that end a run of literals (RE2 syntax). */
const META = new Set(['.', '^', '$', '[', ']', '(', ')', '{', '}', '*', '+', '?', '\\', '|']);

export function requiredLiteral(pattern: string): string | undefined {
  // An alternation or a group anywhere: no text is sure (kept simple on purpose).
  if (pattern.includes('|') || pattern.includes('(')) return undefined;
  const runs: string[] = [];
  let run = '';
  const end = () => {
    runs.push(run);
    run = '';
  };
  for (let at = 0; at < pattern.length;) {
    const char = pattern[at] as string;
    let literal: string | undefined;
    let next = at + 1;
    if (char === '\\') {
      const escape = /^\\x\{([0-9a-fA-F]{1,6})\}/.exec(pattern.slice(at));
      if (escape !== null) {
        literal = String.fromCodePoint(Number.parseInt(escape[1] as string, 16));
        next = at + escape[0].length;
      } else {
        // Another escape (\b, \d, \s…): no literal; an escaped punctuation character is one.
        const escaped = pattern[at + 1] ?? '';
        if (/^[^A-Za-z0-9]$/.test(escaped)) literal = escaped;
        next = at + 2;
      }
    } else if (char === '[') {
      // A class: skip to its end; it ends the run.
      const close = pattern.indexOf(']', at + 2);
      if (close < 0) return undefined;
      next = close + 1;
    } else if (char === '{') {
      // A counted quantifier's body ({2}, {1,3}) is no text of the match.
      const close = pattern.indexOf('}', at + 1);
      if (close < 0) return undefined;
      next = close + 1;
    } else if (!META.has(char)) {
      literal = char;
    }
    // A quantifier after a character makes it optional or repeated: not part of a sure run.
    const quantified = /^[*+?{]/.test(pattern.slice(next));
    if (literal === undefined || quantified) {
      end();
      if (quantified && pattern[next] === '+' && literal !== undefined) run = literal;
    } else {
      run += literal;
    }
    at = next;
  }
  end();
  const longest = runs.reduce((best, candidate) => (candidate.length > best.length ? candidate : best), '');
  return longest === '' ? undefined : longest;
}
