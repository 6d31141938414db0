// Rule shapes appended after the shapes of bench/rule-shapes.js for the validate benchmark
// (bench/validate.bench.js), in a file of their own: rule-shapes.js is not edited after a shape
// is measured. The plan benchmark has its own `gateways`, another shape (bench/plan-shapes.js).
import { pick, randomInt, seededRandom } from '../dist/emulator/random.js';
import { ruleSet, some } from './rule-shapes.js';

// The `gateways` shape: written after the second round of work on validate's cost (issue #36)
// was done, and measured as first written; the allow-before-block filter was tuned for it
// later (bench/README.md, "Tuned for `gateways`"). An API gateway's rules as a team writes them
// over the years: routes of a versioned API from a pool of hundreds, blocked for calls without
// credentials, partner keys allowed on their API version, exports challenged
// outside the countries served, client libraries blocked by pattern when they ask for bulk
// formats, networks challenged unless on a list of single addresses, health checks allowed by
// exact route; descriptions in people's words (colons, hashes, quotes, accents, version
// numbers), so the importer quotes some of them.
const GATEWAY = {
  routes: Array.from({ length: 240 }, (_, i) => `/v${(i % 3) + 1}/${['orders', 'users', 'carts', 'items', 'prices', 'stock', 'reports', 'tokens'][i % 8]}-${Math.floor(i / 24)}/${['list', 'get', 'create', 'export', 'search'][i % 5]}`),
  keys: Array.from({ length: 200 }, (_, i) => `pk_live_${(i * 7919).toString(36).padStart(6, '0')}`),
  countries: ['US', 'CA', 'MX', 'BR', 'GB', 'IE', 'FR', 'DE', 'NL', 'ES', 'IT', 'PL', 'SE', 'JP', 'KR', 'IN', 'SG', 'AU', 'NZ', 'ZA', 'AE', 'IL', 'TR', 'AR', 'CL'],
  suffixes: ['.json', '.csv', '.xml', '/export', '/bulk', '/download', '.zip', '/all'],
  clients: Array.from({ length: 30 }, (_, i) => `^client-${i}/[0-9]+\\.[0-9]+`),
  asns: Array.from({ length: 100 }, (_, i) => String(64512 + i * 13)),
  addresses: Array.from({ length: 200 }, (_, i) => (i % 4 === 3 ? `2001:db8:1::${i.toString(16)}` : `192.0.${2 + (i % 3)}.${i}`)),
  descriptions: ['', 'Blocks: scrapers of the price list (see #412)', 'Partner "Acme" – allowed on v2 only', 'Été 2024: export challenge', 'v1.2 clients # legacy', "Don't remove: on-call asked for it", '1.5', 'yes', 'TODO: review with the API team'],
};

const GATEWAY_INTENTS = [
  (r) => ({ actions: ['hardBlock'], conditions: { operator: '$and', children: [{ operator: '$and', children: [
    { conditionType: 'path', operator: '$startsWith', value: pick(r, GATEWAY.routes) },
    { conditionType: 'httpMethod', operator: '$in', value: some(r, ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'], 1, 3) },
    { conditionType: 'header', fieldOption: 'authorization', operator: '$notExists' },
  ] }] } }),
  (r) => ({ actions: ['allow'], conditions: { operator: '$and', children: [{ operator: '$and', children: [
    { conditionType: 'header', fieldOption: 'x-api-key', operator: '$in', value: some(r, GATEWAY.keys, 1, 4) },
    { conditionType: 'path', operator: '$startsWith', value: `/v${randomInt(r, 1, 3)}/` },
  ] }] } }),
  (r) => ({ actions: ['blockWithChallenge'], conditions: { operator: '$and', children: [
    { operator: '$and', children: [{ conditionType: 'country', operator: '$notIn', value: some(r, GATEWAY.countries, 3, 15) }] },
    { operator: '$or', children: some(r, GATEWAY.suffixes, 1, 3).map((value) => ({ conditionType: 'path', operator: '$endsWith', value })) },
  ] } }),
  (r) => ({ actions: ['hardBlock'], conditions: { operator: '$and', children: [{ operator: '$and', children: [
    { conditionType: 'userAgent', operator: '$re', value: [pick(r, GATEWAY.clients)] },
    { conditionType: 'queryParam', fieldOption: 'format', operator: '$in', value: some(r, ['csv', 'xlsx', 'ndjson'], 1, 2) },
  ] }] } }),
  (r) => ({ actions: ['blockWithChallenge'], conditions: { operator: '$and', children: [{ operator: '$and', children: [
    { conditionType: 'socketIpASN', operator: '$in', value: some(r, GATEWAY.asns, 1, 4) },
    { conditionType: 'socketIps', operator: '$notIn', value: some(r, GATEWAY.addresses, 1, 3) },
  ] }] } }),
  (r) => ({ actions: ['allow'], conditions: { operator: '$or', children: some(r, GATEWAY.routes, 2, 4).map((value) => ({ operator: '$and', children: [
    { conditionType: 'path', operator: '$eq', value: value.replace(/\/[a-z]+$/, '/health') },
  ] })) } }),
];

function gatewayRules(random, count) {
  return Array.from({ length: count }, (_, i) => ({
    name: `Gateway rule ${String(i + 1).padStart(5, '0')}`,
    description: pick(random, GATEWAY.descriptions),
    status: random() < 0.9 ? 'active' : 'paused',
    ...pick(random, GATEWAY_INTENTS)(random),
  }));
}

// The `storefront` shape: written at the end of the third session of work on validate's cost
// (issue #36), after the change that tuned for `gateways`, and measured as first written. A
// shop's rules: scraping tools blocked on sections of the catalogue (a root `$or` of tool and
// section pairs), risky checkouts challenged by device and risk score, partner networks (IPv4
// and IPv6 ranges) allowed when they send their header, shop domains' search abused by query
// patterns, posts from some countries challenged except for static files.
const STORE = {
  tools: Array.from({ length: 60 }, (_, i) => `${['scrapy', 'wget', 'httpclient', 'okhttp', 'go-http', 'aiohttp'][i % 6]}-${i}`),
  sections: Array.from({ length: 80 }, (_, i) => `/${['shop', 'catalog', 'brand', 'sale'][i % 4]}/${i}`),
  checkouts: Array.from({ length: 50 }, (_, i) => `/checkout/step-${i % 5}/${i}`),
  scores: Array.from({ length: 30 }, (_, i) => String(70 + i)),
  networks: Array.from({ length: 150 }, (_, i) => (i % 3 === 2 ? `2001:db8:${(i * 7).toString(16)}::/48` : `10.${i}.${i % 5}.0/24`)),
  domains: Array.from({ length: 20 }, (_, i) => `.store-${i}.example`),
  searches: ['^[0-9]{6,}$', '^.{200,}$', '(union|select)[ +]', '^[a-z]{1,2}$', '%3Cscript', '^[A-Z0-9]{32}$'],
  countries: ['US', 'CA', 'DE', 'FR', 'KP', 'IR', 'RU', 'CN', 'BR', 'IN', 'NG', 'VN'],
};

const STORE_INTENTS = [
  (r) => ({ actions: ['hardBlock'], conditions: { operator: '$or', children: Array.from({ length: randomInt(r, 2, 4) }, () => ({ operator: '$and', children: [
    { conditionType: 'userAgent', operator: '$contains', value: pick(r, STORE.tools) },
    { conditionType: 'path', operator: '$startsWith', value: pick(r, STORE.sections) },
  ] })) } }),
  (r) => ({ actions: ['blockWithChallenge'], conditions: { operator: '$and', children: [
    { operator: '$and', children: [{ conditionType: 'deviceType', operator: '$eq', value: pick(r, ['mobile', 'desktop', 'tablet']) }] },
    { operator: '$and', children: [{ conditionType: 'customParam', fieldOption: 'risk_score', operator: '$in', value: some(r, STORE.scores, 2, 6) }] },
    { operator: '$or', children: some(r, STORE.checkouts, 1, 3).map((value) => ({ conditionType: 'path', operator: '$eq', value })) },
  ] } }),
  (r) => ({ actions: ['allow'], conditions: { operator: '$and', children: [{ operator: '$and', children: [
    { conditionType: 'socketIps', operator: '$in', value: some(r, STORE.networks, 1, 4) },
    { conditionType: 'header', fieldOption: 'x-partner', operator: '$exists' },
  ] }] } }),
  (r) => ({ actions: ['hardBlock'], conditions: { operator: '$and', children: [{ operator: '$and', children: [
    { conditionType: 'domain', operator: '$endsWith', value: pick(r, STORE.domains) },
    { conditionType: 'queryParam', fieldOption: 'q', operator: '$re', value: [pick(r, STORE.searches)] },
  ] }] } }),
  (r) => ({ actions: ['blockWithChallenge'], conditions: { operator: '$and', children: [{ operator: '$and', children: [
    { conditionType: 'country', operator: '$in', value: some(r, STORE.countries, 1, 5) },
    { conditionType: 'httpMethod', operator: '$eq', value: 'POST' },
    { conditionType: 'path', operator: '$notEndsWith', value: pick(r, ['.js', '.css', '.png']) },
  ] }] } }),
];

function storefrontRules(random, count) {
  return Array.from({ length: count }, (_, i) => ({
    name: `Store rule ${String(i + 1).padStart(5, '0')}`,
    description: '',
    status: random() < 0.8 ? 'active' : 'paused',
    ...pick(random, STORE_INTENTS)(random),
  }));
}

/** Shapes appended after ruleSet's (this file is appended to, never edited): ruleSet's, or one of these. */
export const APPENDED_SHAPES = ['gateways', 'storefront'];

export function appendedRuleSet(shape, count) {
  if (!APPENDED_SHAPES.includes(shape)) return ruleSet(shape, count);
  const random = seededRandom(count + 36);
  return (shape === 'gateways' ? gatewayRules : storefrontRules)(random, count).map((rule, i) => ({ ...rule, ruleId: `r-${String(i).padStart(5, '0')}`, priority: i }));
}
