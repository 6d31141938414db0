// The per-value verdict that is not remembered (ProgramVerdicts.valueOnce, asked by the behaviour
// diff's atoms true by a fixed value, src/diff/atoms.ts): the reference evaluator's verdict for a
// request carrying the value or not, whether `value` remembered it before or not; and what `value`
// remembers is left as it was, since that memory, one entry per leaf and value asked, is what the
// caller avoids (it keeps its own answer per field and value). Each property counts how often it
// reaches its assertion, so that none passes by never asserting.
import fc from 'fast-check';
import { fieldOf } from '../../src/evaluate/request.js';
import { leafVerdict } from '../../src/evaluate/leaf.js';
import { ProgramVerdicts } from '../../src/evaluate/program-verdicts.js';
import { ProgramBuilder } from '../../src/semantics/program.js';
import { leaf, request } from '../validate/arbitraries.js';

/** How many verdicts the per-value view remembers, over all leaves (its memory is private). */
function remembered(verdicts: ProgramVerdicts): number {
  const byValue = (verdicts as unknown as { byValue: (Map<string, unknown> | undefined)[] }).byValue;
  return byValue.reduce((sum, known) => sum + (known?.size ?? 0), 0);
}

test('valueOnce answers as the reference evaluator, remembered by value or not, and remembers nothing', () => {
  let reached = 0;
  let rememberedBefore = 0;
  const options = fc.record({ caseInsensitiveValues: fc.boolean() });
  fc.assert(fc.property(fc.array(leaf, { minLength: 1, maxLength: 6 }), fc.array(request, { minLength: 1, maxLength: 4 }), options, fc.boolean(), (leaves, requests, evaluation, askValueFirst) => {
    const program = new ProgramBuilder();
    const ids = leaves.map((written) => program.leaf(written));
    const verdicts = new ProgramVerdicts(program, evaluation);
    for (const one of requests) {
      leaves.forEach((written, at) => {
        const id = ids[at] as number;
        const value = fieldOf(one, written);
        if (askValueFirst) verdicts.value(id, value);
        const memory = remembered(verdicts);
        if (memory > 0) rememberedBefore += 1;
        expect(verdicts.valueOnce(id, value)).toBe(leafVerdict(written, one, evaluation));
        expect(remembered(verdicts)).toBe(memory);
        reached += 1;
      });
    }
  }), { numRuns: 2_000 });
  expect(reached).toBeGreaterThan(5_000);
  expect(rememberedBefore).toBeGreaterThan(1_000);
});
