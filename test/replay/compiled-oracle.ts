// The oracle of the compiled rule sets' property tests: both sets, compiled together, decide each
// request as the reference evaluator (src/evaluate/) decides it under each set alone.
import { expect } from '@jest/globals';
import fc from 'fast-check';
import { decide } from '../../src/evaluate/evaluate.js';
import type { TestRequest } from '../../src/evaluate/request.js';
import type { Group, NormalRule, Rule } from '../../src/semantics/model.js';
import { compileRuleSets } from '../../src/replay/compiled.js';

export function expectDecidedAsReference(live: readonly NormalRule[], declared: readonly NormalRule[], requests: readonly TestRequest[]): void {
  const sets = compileRuleSets([live, declared]);
  for (const one of requests) {
    const [underLive, underDeclared] = sets.decide(one);
    expect(underLive).toEqual(decide(live, one));
    expect(underDeclared).toEqual(decide(declared, one));
  }
}

/** Rules of one or two of these groups, active or paused, allowing or blocking. */
export function ruleOf(group: fc.Arbitrary<Group>): fc.Arbitrary<Rule> {
  return fc.record({
    name: fc.constant('r'),
    description: fc.constant(''),
    status: fc.constantFrom<Rule['status']>('active', 'active', 'paused'),
    actions: fc.constantFrom<Rule['actions']>(['allow'], ['hardBlock']),
    conditions: fc.record({ operator: fc.constantFrom<'$and' | '$or'>('$and', '$or'), children: fc.array(group, { minLength: 1, maxLength: 2 }) }),
  });
}
