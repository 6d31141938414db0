// The witness search's per-step shortcuts (src/diff/) against what they replace: a pattern's
// examples remembered are the examples read afresh; the rules an unknown answer names, read
// lazily, are every rule of its literals' leaves once, in order. Each property counts how often
// it reaches its assertion, so none passes without comparing.
import fc from 'fast-check';
import type { Literal } from '../../src/diff/atoms.js';
import { namedRules } from '../../src/diff/model.js';
import { patternExamples, readExamples } from '../../src/diff/pattern-examples.js';

describe('the witness search per step', () => {
  it("a pattern's examples remembered are the examples read afresh", () => {
    let compared = 0;
    let withExamples = 0;
    const piece = fc.constantFrom('a', 'b', '.', '\\d', '[a-c]', '[^x]', '(', ')', '|', '*', '+', '?', '{2}', '{1,3}', '^', '$', '(?:', '(?=', '\\1');
    fc.assert(
      fc.property(fc.array(fc.array(piece, { maxLength: 8 }).map((parts) => parts.join('')), { minLength: 1, maxLength: 6 }), (sources) => {
        for (const source of [...sources, ...sources]) {
          const examples = patternExamples(source);
          expect({ source, examples }).toEqual({ source, examples: readExamples(source) });
          compared += 1;
          if (examples.length > 0) withExamples += 1;
        }
      }),
      { numRuns: 300 },
    );
    expect(compared).toBeGreaterThan(1_000);
    expect(withExamples).toBeGreaterThan(compared / 10);
  });

  it('the rules an unknown answer names, read lazily, are the rules of its leaves once each, in order', () => {
    let compared = 0;
    fc.assert(
      fc.property(fc.array(fc.array(fc.array(fc.constantFrom('r1', 'r2', 'r3', 'r4', 'r5'), { maxLength: 4 }), { maxLength: 3 }), { maxLength: 3 }), fc.nat(6), (groups, wanted) => {
        const literals: Literal[][] = groups.map((group) => group.map((rules, i) => ({ atom: { id: i, leaf: { conditionType: 'path', operator: '$eq', value: '/' }, field: 'path', rules: new Set(rules) }, holds: true })));
        const eager = [...new Set(groups.flat(2))];
        expect([...namedRules(literals)]).toEqual(eager);
        const firstFew: string[] = [];
        for (const rule of namedRules(literals)) {
          if (firstFew.length >= wanted) break;
          firstFew.push(rule);
        }
        expect(firstFew).toEqual(eager.slice(0, wanted));
        compared += 1;
      }),
      { numRuns: 500 },
    );
    expect(compared).toBe(500);
  });
});
