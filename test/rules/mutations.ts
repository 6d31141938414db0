// Seeded random mutations of rule files: line-level edits (deleted, duplicated, truncated,
// re-indented, swapped lines, random bytes), plus edits that insert characters YAML gives a
// meaning to. Used by the fuzz test and the fast-path equivalence test.
import fc from 'fast-check';

export type Mutation =
  | { kind: 'delete' | 'duplicate' | 'truncate'; at: number }
  | { kind: 'indent'; at: number; by: number }
  | { kind: 'swap'; at: number; other: number }
  | { kind: 'bytes'; at: number; bytes: Uint8Array };

const at = fc.nat({ max: 10_000 });

/** The mutations of the fuzz test. */
export const lineMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constantFrom('delete' as const, 'duplicate' as const, 'truncate' as const), at }),
  fc.record({ kind: fc.constant('indent' as const), at, by: fc.integer({ min: -4, max: 4 }) }),
  fc.record({ kind: fc.constant('swap' as const), at, other: at }),
  fc.record({ kind: fc.constant('bytes' as const), at, bytes: fc.uint8Array({ minLength: 1, maxLength: 6 }) }),
);

const SIGNIFICANT = [':', ': ', '-', '- ', '#', ' #', "'", '"', '{', '}', '[', ']', ',', ', ', ' ', '  ', '\n', '\r\n', '?', '? ', '|', '>',
  '&a ', '*a', '!', '!!str ', '\\', '---', '...', '%', '@', '`', '0', '1.5', 'true', '~', 'null', '\t', '\u00a0', '\u2028', '\ufeff'];

/** Inserts a few characters that mean something to YAML. */
export const syntaxMutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constant('bytes' as const),
  at,
  bytes: fc.array(fc.constantFrom(...SIGNIFICANT), { minLength: 1, maxLength: 3 }).map((parts) => Buffer.from(parts.join(''))),
});

export function splitLines(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, start)) {
    lines.push(bytes.subarray(start, i));
    start = i + 1;
  }
  lines.push(bytes.subarray(start));
  return lines;
}

export function mutate(source: Buffer, mutations: readonly Mutation[]): Buffer {
  let lines = splitLines(source);
  for (const m of mutations) {
    const i = m.at % lines.length;
    const line = lines[i] ?? Buffer.alloc(0);
    if (m.kind === 'delete') lines.splice(i, 1);
    else if (m.kind === 'duplicate') lines.splice(i, 0, line);
    else if (m.kind === 'truncate') lines = [...lines.slice(0, i), line.subarray(0, m.at % (line.length + 1))];
    else if (m.kind === 'indent') lines[i] = m.by >= 0 ? Buffer.concat([Buffer.alloc(m.by, ' '), line]) : line.subarray(Math.min(-m.by, line.length));
    else if (m.kind === 'swap') {
      const j = m.other % lines.length;
      lines[i] = lines[j] ?? line;
      lines[j] = line;
    } else if (m.kind === 'bytes') {
      const cut = m.at % (line.length + 1);
      lines[i] = Buffer.concat([line.subarray(0, cut), m.bytes, line.subarray(cut)]);
    }
    if (lines.length === 0) lines = [Buffer.alloc(0)];
  }
  return Buffer.concat(lines.flatMap((l, k) => (k === 0 ? [l] : [Buffer.from('\n'), l])));
}
