// A rule shape appended after the shapes of bench/rule-shapes.js for the plan benchmark
// (bench/apply.bench.js), in a file of its own: rule-shapes.js is not edited after a shape is
// measured. The validate benchmark has its own shape of the same name (bench/validate-shapes.js).
import { pick, randomInt, seededRandom } from '../dist/emulator/random.js';
import { ACTION_SETS, ruleSet, VALUES } from './rule-shapes.js';

// The `gateways` shape: written after the second round of work on the plan's analyses (issue
// #42), last, and not tuned for; the plan benchmark (bench/apply.bench.js) runs it with the
// others. API-gateway rules, each a root `$or` of one to three ways in: a host suffix (30
// tenants' `.gw-N.example` by `$endsWith`, never an exact host) with one or two methods, then a
// path prefix, an API-key header test or a query pattern. No rule requires an exact value of a
// field every rule tests, so nothing splits the set into parts.
const GATEWAY_PREFIXES = ['/v1/', '/v2/', '/graphql', '/auth/', '/admin/', '/upload'];
const GATEWAY_TESTS = [
  (r) => ({ conditionType: 'path', operator: '$startsWith', value: pick(r, GATEWAY_PREFIXES) }),
  (r) => ({ conditionType: 'header', fieldOption: 'x-api-key', operator: r() < 0.5 ? '$notExists' : '$eq', value: `key-${randomInt(r, 1, 40)}` }),
  (r) => ({ conditionType: 'queryParam', fieldOption: pick(r, ['token', 'callback', 'limit']), operator: '$re', value: [pick(r, ['^[0-9]{5,}$', '^[a-f0-9]{32}$', '<script'])] }),
  (r) => ({ conditionType: 'userAgent', operator: pick(r, ['$contains', '$ne']), value: pick(r, VALUES.userAgent) }),
];

function gatewayWay(random) {
  const methods = [...new Set([pick(random, ['GET', 'POST', 'PUT', 'DELETE']), pick(random, ['GET', 'POST'])])];
  const children = [
    { conditionType: 'domain', operator: '$endsWith', value: `.gw-${randomInt(random, 1, 30)}.example` },
    { conditionType: 'httpMethod', operator: '$in', value: methods },
    pick(random, GATEWAY_TESTS)(random),
  ];
  // `$notExists` carries no value.
  for (const leaf of children) if (leaf.operator === '$notExists') delete leaf.value;
  return { operator: '$and', children };
}

function gatewayRules(random, count) {
  return Array.from({ length: count }, (_, i) => ({
    name: `Gateway rule ${String(i + 1).padStart(5, '0')}`,
    description: '',
    status: random() < 0.9 ? 'active' : 'paused',
    actions: [...pick(random, ACTION_SETS)],
    conditions: { operator: '$or', children: Array.from({ length: randomInt(random, 1, 3) }, () => gatewayWay(random)) },
  }));
}

/** Shapes appended after ruleSet was written: `ruleSet` for those, and theirs for these. */
export const PLAN_ONLY_SHAPES = ['gateways'];

export function anyRuleSet(shape, count) {
  if (shape !== 'gateways') return ruleSet(shape, count);
  const random = seededRandom(count);
  return gatewayRules(random, count).map((rule, i) => ({ ...rule, ruleId: `r-${String(i).padStart(5, '0')}`, priority: i }));
}
