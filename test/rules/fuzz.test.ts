// Feeds thousands of seeded random mutations of the example rule files to the loader: every
// one must end in located, one-line problems or in valid rules; never a crash. (A hang would
// exceed the test timeout; speed itself is measured in bench/, not asserted here.)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseRuleFile } from '../../src/rules/rule-file.js';
import { uniqueNames, uniqueRuleIds } from '../../src/rules/checks/unique.js';

const EXAMPLES = readdirSync('rules').filter((f) => f.endsWith('.yaml')).map((f) => readFileSync(join('rules', f)));

type Mutation =
  | { kind: 'delete' | 'duplicate' | 'truncate'; at: number }
  | { kind: 'indent'; at: number; by: number }
  | { kind: 'swap'; at: number; other: number }
  | { kind: 'bytes'; at: number; bytes: Uint8Array };

const at = fc.nat({ max: 10_000 });
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constantFrom('delete' as const, 'duplicate' as const, 'truncate' as const), at }),
  fc.record({ kind: fc.constant('indent' as const), at, by: fc.integer({ min: -4, max: 4 }) }),
  fc.record({ kind: fc.constant('swap' as const), at, other: at }),
  fc.record({ kind: fc.constant('bytes' as const), at, bytes: fc.uint8Array({ minLength: 1, maxLength: 6 }) }),
);

function splitLines(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, start)) {
    lines.push(bytes.subarray(start, i));
    start = i + 1;
  }
  lines.push(bytes.subarray(start));
  return lines;
}

function mutate(source: Buffer, mutations: readonly Mutation[]): Buffer {
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

describe('the rule file loader under random mutations', () => {
  it('answers every mutation with located problems or valid rules', () => {
    let withProblems = 0;
    fc.assert(
      fc.property(fc.constantFrom(...EXAMPLES), fc.array(mutation, { minLength: 1, maxLength: 4 }), (example, mutations) => {
        const bytes = mutate(example, mutations);
        const result = parseRuleFile(bytes, 'rules/fuzzed.yaml');
        const problems = [...result.problems, ...uniqueNames(result.identities), ...uniqueRuleIds(result.identities)];
        const lineCount = splitLines(bytes).length;
        // Plain checks in the loop (jest's expect is slow at this volume); one expect on failure.
        const bad = problems.filter((p) =>
          p.file !== 'rules/fuzzed.yaml' || p.line < 1 || p.line > lineCount + 1 || p.col < 1 ||
          !/^[^\n]+$/.test(p.message) || /must match|instancePath|undefined|\[object /.test(p.message));
        expect(bad).toEqual([]);
        if (problems.length > 0) withProblems += 1;
        else expect(result.rules.length).toBeGreaterThan(0);
      }),
      { seed: 20_240_611, numRuns: 3000 },
    );
    // The mutations must actually break files, or the test proves nothing.
    expect(withProblems).toBeGreaterThan(1000);
  });
});
