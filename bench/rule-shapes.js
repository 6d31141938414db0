// Rule sets of several shapes for the validate benchmark (bench/validate.bench.js): the cost of
// the rule-set analysis must not depend on the shape of the rules, so each shape is measured
// against the same `yaml`-alone floor. Deterministic for a given count (seeded generators).
//   - themes:     the emulator's generator (ten themes with a few extra conditions);
//   - random:     random leaves over every condition type and operator, values from small pools
//                 per field, so rules overlap a great deal (many shadows, contradictions, catch-alls);
//   - duplicates: few distinct leaves, many rules written alike (a few dozen distinct trees);
//   - tenants:    one host per tenant (200 tenants), each rule scoped to its tenant's host and
//                 to one to three path prefixes, with a user-agent or country test besides:
//                 rules overlap within a tenant only. Added after the plan analyses were made
//                 to meet their targets (issue #42), and not tuned for.
//   - catalogue:  intents of a real project from vocabularies of hundreds of values (bot blocks,
//                 partner ranges, country challenges, API abuse under a root `$or`, monitors,
//                 risky devices per host). Added after validate's cost was worked on (issue #36),
//                 and not tuned for.
//   - scopes:     each rule scoped one of four ways — an exact path (40 paths), one to three
//                 countries (20), an ASN (30), or not at all (a user-agent pattern or substring) —
//                 with one random leaf besides. Written after the plan analyses were made
//                 proportional to the change (issue #42), last, and not tuned for: the plan
//                 benchmark (bench/apply.bench.js) runs it with the four above.
//   - wide-in:    `$in`/`$notIn` lists of 50 to 200 values each over paths, user agents, addresses
//                 and countries, drawn from large pools, so rules share many values (the set-up of
//                 the behaviour diff over `$in` values was quadratic in them, issue #41).
// Usage as a module: `ruleSet(shape, count)`; as a program: `node bench/rule-shapes.js SHAPE COUNT DIR`
// writes the project (DIR/rules/*.yaml, one rule a file) for a look at its findings.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateRules } from '../dist/emulator/generate-rules.js';
import { pick, randomInt, seededRandom } from '../dist/emulator/random.js';
import { ruleFileText } from '../dist/import/rule-file.js';

export const SHAPES = ['themes', 'random', 'duplicates', 'tenants'];
/** Shapes for one benchmark each, left out of the SHAPES every shape-wide benchmark runs. */
export const SPECIAL_SHAPES = ['wide-in', 'catalogue', 'scopes'];

/** Values per field: few, overlapping (prefixes of each other, ranges inside ranges). */
export const VALUES = {
  path: ['/', '/api', '/api/v1', '/api/v1/login', '/login', '/search', '/checkout', '/product/42'],
  userAgent: ['Mozilla/5.0', 'curl/8.4', 'python-requests/2.31', 'HeadlessChrome', 'Googlebot', 'Scrapy'],
  domain: ['shop.example.com', 'api.shop.example.com', '.example.com', 'example.com'],
  socketIps: ['203.0.113.0/24', '203.0.113.7', '198.51.100.0/24', '198.51.100.7', '2001:db8::/32', '2001:db8::1', '10.0.0.0/8'],
  socketIpASN: ['13335', '14061', '16509', '24940'],
  httpMethod: ['GET', 'POST', 'PUT', 'DELETE'],
  deviceType: ['desktop', 'mobile', 'tablet'],
  country: ['US', 'CA', 'DE', 'FR', 'KP', 'IR'],
  header: ['1', 'yes', 'example.net', 'en-US'],
  queryParam: ['1', 'shoes', 'debug', '100'],
  customParam: ['high', 'critical', 'low', 'new'],
};
const PATTERNS = {
  path: ['^/api/', '^/product/[0-9]+$', '.*', '/login$', '(checkout|cart)'],
  userAgent: ['[Ss]crapy|python-requests|curl/', 'HeadlessChrome', '^Mozilla/5\\.0 ', 'bot|crawler|spider'],
  other: ['^[0-9]{3,}$', '^(high|critical)$', 'example', '^$'],
};
const FIELD_OPTIONS = { header: ['x-monitor', 'referer', 'accept-language'], queryParam: ['page', 'q', 'debug'], customParam: ['risk_score', 'tier'] };
const TYPES = Object.keys(VALUES);
const TEXT_OPERATORS = ['$eq', '$ne', '$contains', '$startsWith', '$endsWith', '$notEndsWith', '$re', '$in', '$notIn', '$exists', '$notExists'];
const EXACT_ONLY = new Set(['socketIps', 'socketIpASN', 'country', 'httpMethod']);

function randomLeaf(random, values = VALUES) {
  const conditionType = pick(random, TYPES);
  // Addresses, ASNs, countries and methods take whole values (partial operators would be text anyway).
  const operators = EXACT_ONLY.has(conditionType) ? ['$eq', '$ne', '$in', '$notIn', '$exists', '$notExists'] : TEXT_OPERATORS;
  const operator = pick(random, operators);
  const leaf = { conditionType, operator };
  if (FIELD_OPTIONS[conditionType] !== undefined) leaf.fieldOption = pick(random, FIELD_OPTIONS[conditionType]);
  const pool = values[conditionType];
  if (operator === '$re') leaf.value = [pick(random, PATTERNS[conditionType] ?? PATTERNS.other)];
  else if (operator === '$in' || operator === '$notIn') leaf.value = [...new Set([pick(random, pool), pick(random, pool)])];
  else if (operator !== '$exists' && operator !== '$notExists') leaf.value = pick(random, pool);
  return leaf;
}

/** Large pools: nearly every value of a wide list is its own (the hostile case: all distinct). */
const WIDE_POOLS = {
  path: Array.from({ length: 200_000 }, (_, i) => `/p/${i}`),
  userAgent: Array.from({ length: 200_000 }, (_, i) => `agent-${i}/1.0`),
  socketIps: Array.from({ length: 60_000 }, (_, i) => `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`),
  country: ['US', 'CA', 'DE', 'FR', 'KP', 'IR', 'GB', 'NL', 'BR', 'IN', 'CN', 'RU', 'JP', 'AU', 'ES', 'IT', 'SE', 'PL', 'MX', 'ZA'],
};

function wideInLeaf(random) {
  const conditionType = pick(random, Object.keys(WIDE_POOLS));
  const pool = WIDE_POOLS[conditionType];
  const size = Math.min(pool.length, randomInt(random, 50, 200));
  const values = new Set();
  while (values.size < size) values.add(pick(random, pool));
  return { conditionType, operator: random() < 0.8 ? '$in' : '$notIn', value: [...values] };
}

export const ACTION_SETS = [['allow'], ['hardBlock'], ['blockWithChallenge'], ['hardBlock', 'blockWithChallenge']];

function randomRules(random, count, leafOf, maxGroups, maxLeaves) {
  return Array.from({ length: count }, (_, i) => {
    const groups = Array.from({ length: randomInt(random, 1, maxGroups) }, () => ({
      operator: random() < 0.6 ? '$and' : '$or',
      children: Array.from({ length: randomInt(random, 1, maxLeaves) }, () => leafOf(random)),
    }));
    return {
      name: `Rule ${String(i + 1).padStart(5, '0')}`,
      description: '',
      status: random() < 0.9 ? 'active' : 'paused',
      actions: [...pick(random, ACTION_SETS)],
      conditions: { operator: groups.length > 1 && random() < 0.5 ? '$or' : '$and', children: groups },
    };
  });
}

const TENANT_PATHS = ['/login', '/api/', '/checkout', '/search', '/account', '/admin'];
const TENANT_TESTS = [
  { conditionType: 'userAgent', operator: '$contains', value: 'python' },
  { conditionType: 'userAgent', operator: '$re', value: ['[Ss]crapy|curl/'] },
  { conditionType: 'country', operator: '$in', value: ['KP', 'IR'] },
  { conditionType: 'httpMethod', operator: '$eq', value: 'POST' },
  { conditionType: 'header', fieldOption: 'x-api-key', operator: '$notExists' },
];

/** Rules scoped to one tenant's host each: `$and` of the host, an `$or` of paths, and one more test. */
function tenantRules(random, count) {
  return Array.from({ length: count }, (_, i) => {
    const tenant = randomInt(random, 1, 200);
    const paths = [...new Set(Array.from({ length: randomInt(random, 1, 3) }, () => pick(random, TENANT_PATHS)))];
    return {
      name: `Tenant ${String(tenant).padStart(3, '0')} rule ${String(i + 1).padStart(5, '0')}`,
      description: '',
      status: random() < 0.9 ? 'active' : 'paused',
      actions: [...pick(random, ACTION_SETS)],
      conditions: {
        operator: '$and',
        children: [
          { operator: '$and', children: [{ conditionType: 'domain', operator: '$eq', value: `tenant-${tenant}.example.com` }] },
          { operator: '$or', children: paths.map((path) => ({ conditionType: 'path', operator: '$startsWith', value: path })) },
          { operator: '$and', children: [JSON.parse(JSON.stringify(pick(random, TENANT_TESTS)))] },
        ],
      },
    };
  });
}

// The `catalogue` shape: written after the work on validate's cost (issue #36) was done, and
// measured as first written, never tuned for. Rules as a catalogue of intents a real project
// holds, each from vocabularies of hundreds of values: bot blocks (user-agent patterns and names,
// path prefixes), partner allow lists (address ranges and a key header), country challenges on
// pages or methods, API abuse (root `$or` of versioned prefixes with a query test and ASNs),
// monitoring allow rules, risky devices on a shop's host.
const CATALOGUE = {
  botPatterns: ['[Ss]crapy', 'python-requests/[0-9.]+', 'curl/', 'Go-http-client', 'HeadlessChrome', '(?:bot|crawler|spider)', 'Java/1\\.[0-9]+', 'libwww-perl'],
  botNames: Array.from({ length: 40 }, (_, i) => `badbot-${i}`),
  prefixes: Array.from({ length: 60 }, (_, i) => `/${['shop', 'api', 'account', 'media', 'search', 'blog'][i % 6]}/${Math.floor(i / 6)}`),
  pages: Array.from({ length: 60 }, (_, i) => `/page/${i}`),
  ranges: Array.from({ length: 300 }, (_, i) => (i % 5 === 4 ? `2001:db8:${i.toString(16)}::/48` : `10.${i % 256}.${Math.floor(i / 2) % 256}.0/${i % 3 === 0 ? 24 : 28}`)),
  countries: ['US', 'CA', 'MX', 'BR', 'AR', 'GB', 'IE', 'FR', 'DE', 'NL', 'BE', 'ES', 'PT', 'IT', 'CH', 'AT', 'SE', 'NO', 'FI', 'DK', 'PL', 'CZ', 'HU', 'RO', 'BG', 'GR', 'TR', 'UA', 'RU', 'KZ', 'CN', 'JP', 'KR', 'IN', 'PK', 'BD', 'ID', 'MY', 'SG', 'TH', 'VN', 'PH', 'AU', 'NZ', 'ZA', 'NG', 'EG', 'KE', 'MA', 'SA', 'AE', 'IL', 'IR', 'IQ', 'KP', 'CO', 'PE', 'CL', 'VE', 'CU'],
  asns: Array.from({ length: 80 }, (_, i) => String(13000 + i * 37)),
  monitors: Array.from({ length: 20 }, (_, i) => `Monitor-${i}/2.0 (+https://monitor.example/${i})`),
  tokens: Array.from({ length: 50 }, (_, i) => `token-${i}`),
};

/**
 * `count` rules named "LABEL rule 00001"…, each active with the odds `activeShare` (else paused),
 * with an action set and the conditions `conditionsOf` makes, drawn from `random` in that order.
 */
export function namedRules(random, count, label, activeShare, conditionsOf) {
  return Array.from({ length: count }, (_, i) => ({
    name: `${label} rule ${String(i + 1).padStart(5, '0')}`,
    description: '',
    status: random() < activeShare ? 'active' : 'paused',
    actions: [...pick(random, ACTION_SETS)],
    conditions: conditionsOf(random),
  }));
}

export function some(random, pool, low, high) {
  return [...new Set(Array.from({ length: randomInt(random, low, high) }, () => pick(random, pool)))];
}

const INTENTS = [
  (r) => ({ actions: ['hardBlock'], conditions: { operator: '$and', children: [
    { operator: '$or', children: [{ conditionType: 'userAgent', operator: '$re', value: some(r, CATALOGUE.botPatterns, 1, 2) }, { conditionType: 'userAgent', operator: '$contains', value: pick(r, CATALOGUE.botNames) }] },
    { operator: '$or', children: some(r, CATALOGUE.prefixes, 1, 3).map((value) => ({ conditionType: 'path', operator: '$startsWith', value })) },
  ] } }),
  (r) => ({ actions: ['allow'], conditions: { operator: '$and', children: [
    { operator: '$and', children: [{ conditionType: 'socketIps', operator: '$in', value: some(r, CATALOGUE.ranges, 1, 5) }, { conditionType: 'header', fieldOption: 'x-partner-key', operator: '$exists' }] },
  ] } }),
  (r) => ({ actions: ['blockWithChallenge'], conditions: { operator: '$and', children: [
    { operator: '$and', children: [{ conditionType: 'country', operator: '$in', value: some(r, CATALOGUE.countries, 2, 12) }] },
    { operator: '$or', children: [{ conditionType: 'path', operator: '$eq', value: pick(r, CATALOGUE.pages) }, { conditionType: 'httpMethod', operator: '$in', value: ['POST', 'PUT'] }] },
  ] } }),
  (r) => ({ actions: ['hardBlock'], conditions: { operator: '$or', children: Array.from({ length: randomInt(r, 1, 3) }, () => ({ operator: '$and', children: [
    { conditionType: 'path', operator: '$startsWith', value: `/api/v${randomInt(r, 1, 4)}/${pick(r, ['login', 'cart', 'search', 'export'])}` },
    r() < 0.5 ? { conditionType: 'queryParam', fieldOption: pick(r, ['limit', 'page', 'q']), operator: '$re', value: ['^[0-9]{4,}$'] } : { conditionType: 'queryParam', fieldOption: 'debug', operator: '$exists' },
    { conditionType: 'socketIpASN', operator: '$notIn', value: some(r, CATALOGUE.asns, 1, 6) },
  ] })) } }),
  (r) => ({ actions: ['allow'], conditions: { operator: '$and', children: [
    { operator: '$and', children: [{ conditionType: 'userAgent', operator: '$eq', value: pick(r, CATALOGUE.monitors) }, { conditionType: 'header', fieldOption: 'x-monitor', operator: '$eq', value: pick(r, CATALOGUE.tokens) }] },
  ] } }),
  (r) => ({ actions: ['blockWithChallenge'], conditions: { operator: '$and', children: [
    { operator: '$and', children: [{ conditionType: 'deviceType', operator: '$ne', value: 'desktop' }, { conditionType: 'customParam', fieldOption: 'risk_score', operator: '$in', value: ['high', 'critical'] }] },
    { operator: '$and', children: [{ conditionType: 'domain', operator: '$endsWith', value: `.shop-${randomInt(r, 1, 150)}.example` }] },
  ] } }),
];

function catalogueRules(random, count) {
  return Array.from({ length: count }, (_, i) => ({
    name: `Catalogue rule ${String(i + 1).padStart(5, '0')}`,
    description: '',
    status: random() < 0.85 ? 'active' : 'paused',
    ...pick(random, INTENTS)(random),
  }));
}

const SCOPE_PATHS = Array.from({ length: 40 }, (_, i) => `/section-${i}/index`);
const SCOPE_COUNTRIES = ['US', 'CA', 'DE', 'FR', 'KP', 'IR', 'GB', 'NL', 'BR', 'IN', 'CN', 'RU', 'JP', 'AU', 'ES', 'IT', 'SE', 'PL', 'MX', 'ZA'];
const SCOPE_ASNS = Array.from({ length: 30 }, (_, i) => String(64500 + i));

function scopeLeaf(random) {
  const kind = random();
  if (kind < 0.3) return { conditionType: 'path', operator: '$eq', value: pick(random, SCOPE_PATHS) };
  if (kind < 0.6) return { conditionType: 'country', operator: '$in', value: [...new Set(Array.from({ length: randomInt(random, 1, 3) }, () => pick(random, SCOPE_COUNTRIES)))] };
  if (kind < 0.8) return { conditionType: 'socketIpASN', operator: '$eq', value: pick(random, SCOPE_ASNS) };
  return random() < 0.5
    ? { conditionType: 'userAgent', operator: '$re', value: [pick(random, PATTERNS.userAgent)] }
    : { conditionType: 'userAgent', operator: '$contains', value: pick(random, VALUES.userAgent) };
}

/** Rules scoped one of four ways (scopeLeaf), `$and` one random leaf. */
function scopedRules(random, count) {
  return namedRules(random, count, 'Scoped', 0.9, () => ({ operator: '$and', children: [{ operator: '$and', children: [scopeLeaf(random), randomLeaf(random)] }] }));
}

/** `count` rules of the given shape, with ids and priorities as the importer writes them. */
export function ruleSet(shape, count) {
  const random = seededRandom(count);
  let rules;
  if (shape === 'themes') rules = generateRules(random, count);
  else if (shape === 'random') rules = randomRules(random, count, (r) => randomLeaf(r), 3, 4);
  else if (shape === 'duplicates') {
    // Twelve distinct leaves in all; rules of one or two groups of one or two of them.
    const leaves = Array.from({ length: 12 }, () => randomLeaf(random));
    rules = randomRules(random, count, (r) => JSON.parse(JSON.stringify(pick(r, leaves))), 2, 2);
  } else if (shape === 'tenants') rules = tenantRules(random, count);
  else if (shape === 'catalogue') rules = catalogueRules(random, count);
  else if (shape === 'scopes') rules = scopedRules(random, count);
  else if (shape === 'wide-in') rules = randomRules(random, count, wideInLeaf, 2, 2);
  else throw new Error(`unknown shape ${shape}: one of ${[...SHAPES, ...SPECIAL_SHAPES].join(', ')}`);
  return rules.map((rule, i) => ({ ...rule, ruleId: `r-${String(i).padStart(5, '0')}`, priority: i }));
}

/** Writes `rules` into DIR/rules, `perFile` rules a file (one header per file). */
export function writeProject(dir, rules, perFile) {
  mkdirSync(join(dir, 'rules'), { recursive: true });
  for (let first = 0; first < rules.length; first += perFile) {
    const texts = rules.slice(first, first + perFile).map((rule) => ruleFileText(rule));
    // Each text is `# schema comment`, `rules:`, then the rule's lines: keep one header.
    const text = texts[0] + texts.slice(1).map((t) => t.split('\n').slice(2).join('\n')).join('');
    writeFileSync(join(dir, 'rules', `${String(first).padStart(5, '0')}.yaml`), text);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [shape = 'random', count = '1000', dir = 'bench-project', perFile = '1'] = process.argv.slice(2);
  writeProject(dir, ruleSet(shape, Number(count)), Number(perFile));
}
