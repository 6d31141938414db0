// Feeds thousands of seeded random mutations of the example rule files to the loader: every
// one must end in located, one-line problems or in valid rules; never a crash. (A hang would
// exceed the test timeout; speed itself is measured in bench/, not asserted here.)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseRuleFile } from '../../src/rules/rule-file.js';
import { uniqueNames, uniqueRuleIds } from '../../src/rules/checks/unique.js';
import { lineMutation as mutation, mutate, splitLines } from './mutations.js';

const EXAMPLES = readdirSync('rules').filter((f) => f.endsWith('.yaml')).map((f) => readFileSync(join('rules', f)));

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
