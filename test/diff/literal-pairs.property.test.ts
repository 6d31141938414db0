// The proof that two literals of one field cannot both hold (src/diff/literal-pairs.ts), against
// brute force: over random pairs of leaves of one field, each required to hold or to fail, under
// either evaluation, whenever the proof says no value meets both, no value of a wide domain (the
// field absent, every value either leaf mentions, their joins and case variants) meets both.
// The proofs are counted by kind, so the property cannot pass without reaching them.
import fc from 'fast-check';
import { leafVerdict, type EvaluationOptions } from '../../src/evaluate/leaf.js';
import { requestWith, type TestRequest } from '../../src/evaluate/request.js';
import { fieldKey, leafValues } from '../../src/semantics/fields.js';
import type { Leaf } from '../../src/semantics/model.js';
import { AtomTable, type Literal } from '../../src/diff/atoms.js';
import { cannotBothHold } from '../../src/diff/literal-pairs.js';
import { leaf } from '../validate/arbitraries.js';

/** The field absent, and every value worth trying for two leaves of it. */
function values(a: Leaf, b: Leaf): (string | undefined)[] {
  const mentioned = [...leafValues(a), ...leafValues(b), '', 'x', '/x'];
  const joined = mentioned.flatMap((one) => mentioned.flatMap((two) => [one + two, `${one}x${two}`]));
  return [undefined, ...new Set([...joined, ...joined.map((value) => value.toUpperCase())])];
}

function requestOf(sample: Leaf, value: string | undefined): TestRequest {
  return value === undefined ? { path: '/', method: 'GET' } : { path: '/', method: 'GET', ...requestWith(sample, value) };
}

function meets(literal: Literal, request: TestRequest, options: EvaluationOptions): boolean {
  return leafVerdict(literal.atom.leaf, request, options) === literal.holds;
}

describe('the proof that two literals of one field cannot both hold', () => {
  it('claims it only when no value of the field meets both, and claims it for finite, prefix and suffix literals', () => {
    const proofs = new Map<string, number>();
    let pairs = 0;
    fc.assert(
      fc.property(leaf, leaf, fc.boolean(), fc.boolean(), fc.boolean(), (first, second, holdsA, holdsB, ignoreCase) => {
        fc.pre(fieldKey(first) === fieldKey(second));
        pairs += 1;
        const table = new AtomTable();
        const a = { atom: table.add(first, 'a'), holds: holdsA };
        const b = { atom: table.add(second, 'b'), holds: holdsB };
        const options = { caseInsensitiveValues: ignoreCase };
        if (!cannotBothHold(a, b, options)) return;
        const kind = [first.operator, second.operator].sort().join(' ');
        proofs.set(kind, (proofs.get(kind) ?? 0) + 1);
        // A request always carries a path and a method.
        for (const value of values(first, second).filter((one) => one !== undefined || !['path', 'httpMethod'].includes(first.conditionType))) {
          const request = requestOf(first, value);
          expect({ value, both: meets(a, request, options) && meets(b, request, options) }).toEqual({ value, both: false });
        }
      }),
      { numRuns: 3000 },
    );
    const count = (operator: string): number => [...proofs].filter(([kind]) => kind.includes(operator)).reduce((sum, [, n]) => sum + n, 0);
    expect(pairs).toBeGreaterThan(300);
    expect(count('$in')).toBeGreaterThan(10);
    expect(count('$startsWith')).toBeGreaterThan(3);
    expect(count('$endsWith')).toBeGreaterThan(3);
  });
});
