// The witness search's backjumping (src/diff/model.ts, conflicts.ts): an unsat search whose
// reason lies in one field, reached after splitting on many atoms of other fields, ends without
// trying both truth values of each of those atoms. Twelve rules above, each matching requests
// without two headers of its own, make the search split twice per rule before it meets the two
// rules that between them match every country; trying both truth values of every header atom
// would visit about 2^12 states, past the witness search's limit, and the diff would report the
// rule unchecked instead of finding that nothing changes.
import { regionsWhere } from '../../src/diff/regions.js';
import type { Conditions, Leaf, NormalRule } from '../../src/semantics/model.js';
import { differ } from './brute-force.js';
import { normal } from '../helpers/rules.js';

const rule = (name: string, conditions: Conditions, extra: Partial<NormalRule> = {}): NormalRule => normal({
  name, description: '', status: 'active', actions: ['hardBlock'], conditions, ...extra,
});
const all = (...children: Leaf[]): Conditions => ({ operator: '$and', children: [{ operator: '$and', children }] });
const without = (header: string): Leaf => ({ conditionType: 'header', fieldOption: header, operator: '$notExists' });
const withHeader = (header: string): Leaf => ({ conditionType: 'header', fieldOption: header, operator: '$exists' });

describe('the witness search jumps back over atoms an unsat answer does not blame', () => {
  const headerRules = Array.from({ length: 12 }, (_, i) => rule(`headers ${i}`, all(without(`x-a${i}`), without(`x-b${i}`))));
  const countries = [
    rule('outside US', all({ conditionType: 'country', operator: '$ne', value: 'US' })),
    rule('US', all({ conditionType: 'country', operator: '$eq', value: 'US' })),
  ];
  const last = rule('last', all({ conditionType: 'path', operator: '$startsWith', value: '/api' }));

  it('finds that a rule below rules that match every request changes nothing, with nothing unchecked', () => {
    const before = [...headerRules, ...countries, last];
    const after = [...headerRules, ...countries, { ...last, actions: ['allow'] } as NormalRule];
    expect(regionsWhere([before, after], differ)).toEqual({ regions: [], unchecked: [] });
  });

  it('still finds the requests that reach the changed rule when the rules above leave some', () => {
    const before = [...headerRules, countries[0] as NormalRule, last];
    const after = [...headerRules, countries[0] as NormalRule, { ...last, actions: ['allow'] } as NormalRule];
    const search = regionsWhere([before, after], differ);
    expect(search.unchecked).toEqual([]);
    expect(search.regions).toHaveLength(1);
    expect(search.regions[0]?.witness).toMatchObject({ country: 'US', path: '/api' });
  });

  it('blames every literal that makes a rule above match, and so tries the other truth value of one of them', () => {
    // The search splits on "x-a absent" (false first), then finds "x-c absent and x-a present"
    // true: both literals are to blame. Blaming "x-c absent" alone would skip "x-a absent" true,
    // the only branch with a request (x-a absent, x-b present), and the class would be missed.
    const neither = rule('neither', all(without('x-a'), without('x-b')));
    const aWithoutC = rule('a without c', all(without('x-c'), withHeader('x-a')));
    const changed = rule('no c', all(without('x-c')));
    const search = regionsWhere([[neither, aWithoutC, changed], [neither, aWithoutC, { ...changed, actions: ['allow'] } as NormalRule]], differ);
    expect(search.unchecked).toEqual([]);
    expect(search.regions.map((region) => region.witness)).toEqual([{ path: '/', method: 'GET', headers: { 'x-b': expect.any(String) } }]);
  });
});
