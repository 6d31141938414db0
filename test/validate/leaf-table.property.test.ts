// The prover's leaf table (src/validate/prover.ts) files leaves by field and operator and asks
// leafImplies only about the operators a leaf can imply (impliableOperators, leaves.ts): the
// sets it gives must be exactly those of asking leafImplies about every leaf of the same field,
// in ascending order, on leaves of every operator (addresses, patterns, absent fields).
import fc from 'fast-check';
import { leafImplies } from '../../src/validate/leaves.js';
import { LeafTable } from '../../src/validate/prover.js';
import { fieldKey } from '../../src/semantics/fields.js';
import { leaf } from './arbitraries.js';

describe('the leaf table', () => {
  it('gives each leaf exactly the leaves of its field that leafImplies says it implies', () => {
    let implied = 0;
    fc.assert(fc.property(fc.array(leaf, { minLength: 1, maxLength: 40 }), (written) => {
      const table = new LeafTable();
      // Distinct objects, as the analysis interns them.
      const ids = [...new Set(written)].map((l) => table.id(l));
      for (const p of ids) {
        const leafP = table.leaves[p];
        if (leafP === undefined) throw new Error('unknown leaf');
        const everyLeaf = ids.filter((q) => fieldKey(table.leaves[q] ?? leafP) === fieldKey(leafP) && leafImplies(leafP, table.leaves[q] ?? leafP));
        const got = [...table.impliedBy(p)];
        implied += got.filter((q) => q !== p).length;
        expect(got).toEqual(everyLeaf);
      }
    }), { numRuns: 500, seed: 22 });
    // Many leaves imply others beyond themselves, or the comparison says little.
    expect(implied).toBeGreaterThan(1_000);
  });
});
