// Random requests and rule conditions for the property tests that hold a back end of the
// compiled program to the reference evaluator (test/replay/duckdb/, test/replay/sql/):
// every condition type and operator, values drawn from the pools a test gives (texts, addresses,
// ranges, patterns, names), absent fields, and leaves with a field the tool does not know.
import fc from 'fast-check';
import type { TestRequest } from '../../src/evaluate/request.js';
import { CONDITION_TYPES, LEAF_OPERATORS, type Group, type Leaf, type Rule } from '../../src/semantics/model.js';

export interface Pools {
  texts: readonly string[];
  ips: readonly string[];
  ranges: readonly string[];
  patterns: readonly string[];
  names: readonly string[];
}

/** Requests whose fields are absent or drawn from the pools. */
export function requestsFrom(pools: Pools): fc.Arbitrary<TestRequest> {
  const text = fc.constantFrom(...pools.texts);
  const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
  const names = fc.dictionary(fc.constantFrom(...pools.names), text, { maxKeys: 3 });
  return fc.record({
    path: maybe(text), method: maybe(fc.constantFrom('GET', 'POST')), userAgent: maybe(text), ip: maybe(fc.constantFrom(...pools.ips)),
    asn: maybe(fc.constantFrom('13335', '1')), country: maybe(fc.constantFrom('US', 'DE')), domain: maybe(text), deviceType: maybe(text),
    headers: maybe(names), query: maybe(names), custom: maybe(names),
  }).map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as TestRequest);
}

/** A rule's conditions, status and actions (its name is the test's to give). */
export function rulesFrom(pools: Pools): fc.Arbitrary<Omit<Rule, 'name'>> {
  const leaf: fc.Arbitrary<Leaf> = fc.tuple(
    fc.constantFrom(...CONDITION_TYPES), fc.constantFrom(...LEAF_OPERATORS), fc.array(fc.nat(100), { minLength: 1, maxLength: 3 }), fc.constantFrom(...pools.names), fc.boolean(),
  ).map(([conditionType, operator, picks, name, unknown]) => {
    const pool = operator === '$re' ? pools.patterns : conditionType === 'socketIps' ? pools.ranges : pools.texts;
    const values = picks.map((pick) => pool[pick % pool.length] as string);
    const value = ['$in', '$notIn', '$re'].includes(operator) ? values : operator === '$exists' || operator === '$notExists' ? undefined : values[0];
    const named = conditionType === 'header' || conditionType === 'queryParam' || conditionType === 'customParam';
    // A field the tool does not know rides along (docs: kept, never compared).
    return { conditionType, operator, ...(value === undefined ? {} : { value }), ...(named ? { fieldOption: name } : {}), ...(unknown ? { futureField: 1 } : {}) } as Leaf;
  });
  const group: fc.Arbitrary<Group> = fc.record({ operator: fc.constantFrom<'$and' | '$or'>('$and', '$or'), children: fc.array(leaf, { maxLength: 3 }) });
  return fc.record({
    description: fc.constant(''), status: fc.constantFrom<Rule['status']>('active', 'active', 'paused'),
    actions: fc.constantFrom<Rule['actions']>(['allow'], ['hardBlock'], ['blockWithChallenge'], []),
    conditions: fc.record({ operator: fc.constantFrom<'$and' | '$or'>('$and', '$or'), children: fc.array(group, { maxLength: 3 }) }),
  });
}
