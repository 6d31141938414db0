// The compiled rule set's index selects rules by the address blocks of their socketIps ranges
// (src/replay/address-blocks.ts) and, where a group offers several guards, by the one fewest rules
// share (src/replay/rule-guards.ts). Those lookups only ever skip a rule the reference evaluator
// finds false: on random rules with IPv4 and IPv6 ranges not aligned to a byte (a /20, a /116),
// host bits set, IPv4-mapped and -compatible forms, zone indexes and texts that are no range,
// beside country lists and device types, and random requests, the compiled sets decide as
// src/evaluate/ does.
import fc from 'fast-check';
import type { TestRequest } from '../../src/evaluate/request.js';
import type { Group, Leaf } from '../../src/semantics/model.js';
import { normal } from '../helpers/rules.js';
import { expectDecidedAsReference, ruleOf } from './compiled-oracle.js';

const OCTETS = [0, 1, 15, 16, 80, 95, 96, 198, 255];
const v4 = fc.tuple(...Array.from({ length: 4 }, () => fc.constantFrom(...OCTETS))).map((parts) => parts.join('.'));
const v6 = fc.oneof(
  v4.map((address) => `::ffff:${address}`),
  v4.map((address) => `::${address}`),
  fc.constantFrom('::', '::1', '2001:db8::', '2001:db8::f:1', '2001:DB8:0:0::5', '::ffff:c605:5000', '::FFFF:C605:5F01', 'fe80::1%eth0', '2001:db8:1::'),
);
const address = fc.oneof(v4, v4, v6);
const range = fc.oneof(
  fc.tuple(v4, fc.constantFrom(0, 1, 7, 8, 12, 19, 20, 21, 24, 28, 31, 32)).map(([a, prefix]) => `${a}/${prefix}`),
  fc.tuple(v6, fc.constantFrom(0, 16, 32, 64, 95, 96, 100, 108, 116, 120, 127, 128)).map(([a, prefix]) => `${a}/${prefix}`),
  address,
  fc.constantFrom('x', '1.2.3.4/', '1.2.3.4/33', '01.2.3.4', '::/129', ''),
);

const addressLeaf: fc.Arbitrary<Leaf> = fc.tuple(fc.constantFrom<Leaf['operator']>('$eq', '$in', '$in', '$ne', '$notIn'), fc.array(range, { minLength: 1, maxLength: 3 }))
  .map(([operator, ranges]) => ({ conditionType: 'socketIps', operator, value: operator === '$in' || operator === '$notIn' ? ranges : (ranges[0] as string) }));
const otherLeaf: fc.Arbitrary<Leaf> = fc.oneof(
  fc.subarray(['US', 'DE', 'KP'], { minLength: 1 }).map((value): Leaf => ({ conditionType: 'country', operator: '$in', value })),
  fc.constantFrom('mobile', 'desktop').map((value): Leaf => ({ conditionType: 'deviceType', operator: '$eq', value })),
);
const group: fc.Arbitrary<Group> = fc.record({
  operator: fc.constantFrom<'$and' | '$or'>('$and', '$and', '$or'),
  children: fc.array(fc.oneof(addressLeaf, addressLeaf, otherLeaf), { minLength: 1, maxLength: 3 }),
});
const rule = ruleOf(group);
const request: fc.Arbitrary<TestRequest> = fc.record({
  ip: fc.oneof(address, address, address, fc.constantFrom('not-an-ip', '', '1.2.3.4/8', '198.016.0.1')),
  country: fc.constantFrom('US', 'DE', 'FR'),
  deviceType: fc.constantFrom('mobile', 'desktop'),
}, { requiredKeys: [] });

test('rules selected by address block and by their least shared guard decide as the reference evaluator does', () => {
  fc.assert(fc.property(fc.array(rule, { minLength: 1, maxLength: 12 }), fc.array(request, { minLength: 1, maxLength: 10 }), (rules, requests) => {
    const live = rules.map((r, i) => normal({ ...r, name: `rule ${i}` }));
    const declared = [...live].reverse();
    expectDecidedAsReference(live, declared, requests);
  }), { numRuns: 5_000 });
});
