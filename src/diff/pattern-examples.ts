// Texts a `$re` pattern probably matches, read off its syntax: each alternative, classes as one
// of their characters, repeats at their least count and one more. Only candidates: whoever uses
// them checks each with the evaluator (values.ts), so a wrong reading costs a candidate, never
// a wrong answer. Lookarounds and back references are not read (no candidates).

/** Examples per part at most, so that a long pattern stays cheap. */
const MAX_EXAMPLES = 6;

const ESCAPES: Readonly<Record<string, string>> = { d: '0', w: 'a', s: ' ', D: 'a', W: '-', S: 'a', n: '\n', t: '\t', r: '\r', b: '', B: '' };

/**
 * Read once per pattern: the witness search asks for a pattern's examples each time it looks for
 * a value of the pattern's field under new literals, thousands of times for the same few patterns.
 */
const READ = new Map<string, readonly string[]>();
const MAX_READ = 10_000;

export function patternExamples(source: string): readonly string[] {
  let examples = READ.get(source);
  if (examples === undefined) {
    if (READ.size >= MAX_READ) READ.clear();
    READ.set(source, (examples = readExamples(source)));
  }
  return examples;
}

/** The examples read afresh (what patternExamples remembers). */
export function readExamples(source: string): string[] {
  try {
    const reader = { source, at: 0 };
    const examples = alternatives(reader);
    return reader.at === source.length ? examples : [];
  } catch {
    return [];
  }
}

interface Reader {
  source: string;
  at: number;
}

function alternatives(reader: Reader): string[] {
  const out = sequence(reader);
  while (reader.source[reader.at] === '|') {
    reader.at++;
    out.push(...sequence(reader));
  }
  return out.slice(0, MAX_EXAMPLES);
}

function sequence(reader: Reader): string[] {
  let out = [''];
  while (reader.at < reader.source.length && reader.source[reader.at] !== '|' && reader.source[reader.at] !== ')') {
    const piece = repeated(reader, atom(reader));
    out = out.flatMap((head) => piece.map((tail) => head + tail)).slice(0, MAX_EXAMPLES);
  }
  return out;
}

function atom(reader: Reader): string[] {
  const char = reader.source[reader.at++] as string;
  switch (char) {
    case '^': case '$': return [''];
    case '.': return ['a'];
    case '\\': return [escaped(reader)];
    case '[': return [classMember(reader)];
    case '(': {
      if (reader.source.startsWith('?:', reader.at)) reader.at += 2;
      else if (reader.source.startsWith('?<', reader.at) && !/^\?<[=!]/.test(reader.source.slice(reader.at))) reader.at = reader.source.indexOf('>', reader.at) + 1;
      else if (reader.source[reader.at] === '?') throw new Error('lookaround');
      const inner = alternatives(reader);
      if (reader.source[reader.at++] !== ')') throw new Error('unclosed group');
      return inner;
    }
    default: return [char];
  }
}

function escaped(reader: Reader): string {
  const char = reader.source[reader.at++] as string;
  if (/[1-9k]/.test(char)) throw new Error('back reference');
  return ESCAPES[char] ?? char;
}

/** One character a class admits: its first, or for a negated class one it leaves out. */
function classMember(reader: Reader): string {
  const negated = reader.source[reader.at] === '^';
  if (negated) reader.at++;
  const members: string[] = [];
  while (reader.source[reader.at] !== ']') {
    if (reader.at >= reader.source.length) throw new Error('unclosed class');
    const char = reader.source[reader.at++] as string;
    members.push(char === '\\' ? escaped(reader) : char);
  }
  reader.at++;
  if (!negated) return members[0] ?? '';
  return ['a', '0', '-', ' ', 'Z', '~'].find((candidate) => !members.includes(candidate)) ?? '!';
}

/** The atom's examples repeated by the quantifier that follows, if any: the least count and one more. */
function repeated(reader: Reader, examples: string[]): string[] {
  const rest = reader.source.slice(reader.at);
  const quantifier = /^(?:([*+?])|\{(\d+)(,(\d*))?\})\??/.exec(rest);
  if (quantifier === null) return examples;
  reader.at += quantifier[0].length;
  const least = quantifier[1] === '+' ? 1 : quantifier[1] !== undefined ? 0 : Number(quantifier[2]);
  const most = quantifier[1] === '?' ? 1 : quantifier[1] !== undefined || quantifier[3] !== undefined && quantifier[4] === '' ? Infinity : Number(quantifier[4] ?? quantifier[2]);
  const counts = least < most ? [least, least + 1] : [least];
  return counts.flatMap((count) => examples.map((example) => example.repeat(count))).slice(0, MAX_EXAMPLES);
}
