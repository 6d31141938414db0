// Which leaf of an `$and` group indexes a rule (src/replay/rule-guards.ts): the one whose keys
// select the rule for the fewest requests. A key of a field with few values (device type, method,
// country) is held by a large share of requests, so it must not win over a query parameter's values
// merely because fewer rules share it.
import { guardsOf } from '../../src/replay/rule-guards.js';
import type { Leaf } from '../../src/semantics/model.js';
import { normal } from '../helpers/rules.js';

const feedWay = (formats: string[]): Leaf => ({ conditionType: 'queryParam', fieldOption: 'format', operator: '$in', value: formats });
const device = (type: string): Leaf => ({ conditionType: 'deviceType', operator: '$eq', value: type });
const method = (name: string): Leaf => ({ conditionType: 'httpMethod', operator: '$eq', value: name });
const rule = (i: number, leaves: Leaf[]) => normal({ name: `rule ${i}`, description: '', status: 'active', actions: ['hardBlock'], conditions: { operator: '$and', children: [{ operator: '$and', children: leaves }] } });

function chosenFields(rules: ReturnType<typeof rule>[]): string[] {
  const guards = guardsOf(rules, rules.map((_, i) => i), () => undefined);
  return rules.map((_, i) => (guards.get(i) ?? []).map(([leaf]) => leaf.conditionType).join(','));
}

test('a query parameter that more rules share indexes the rule rather than a device type that fewer rules share', () => {
  // Every rule: one of 12 feed formats lists of two (each format shared by 4 rules, 8 per rule),
  // and one of 4 device types (each shared by 6 rules): counted alone, the device type is cheaper.
  const formats = Array.from({ length: 12 }, (_, i) => `f${i}`);
  const rules = Array.from({ length: 24 }, (_, i) => rule(i, [feedWay([formats[i % 12] as string, formats[(i + 1) % 12] as string]), device(`d${i % 4}`)]));
  expect(chosenFields(rules)).toEqual(rules.map(() => 'queryParam'));
});

test('a method indexes a rule only when its other leaves are shared by many times more rules', () => {
  const rules = [
    ...Array.from({ length: 3 }, (_, i) => rule(i, [method('POST'), feedWay(['rss'])])),
    ...Array.from({ length: 100 }, (_, i) => rule(100 + i, [method(`M${i}`), feedWay(['rss'])])),
  ];
  // `rss` is shared by 103 rules; POST by 3: 3 × 16 < 103, so POST indexes the first three.
  expect(chosenFields(rules).slice(0, 3)).toEqual(['httpMethod', 'httpMethod', 'httpMethod']);
});
