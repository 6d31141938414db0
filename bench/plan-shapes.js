// A rule shape appended after the shapes of bench/rule-shapes.js for the plan benchmark
// (bench/apply.bench.js), in a file of its own: rule-shapes.js is not edited after a shape is
// measured. The validate benchmark has its own shape of the same name (bench/validate-shapes.js).
import { pick, randomInt, seededRandom } from '../dist/emulator/random.js';
import { ACTION_SETS, namedRules, ruleSet, VALUES } from './rule-shapes.js';
import { LATE_SHAPES, lateRuleSet } from './plan-shapes-late.js';

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
  return namedRules(random, count, 'Gateway', 0.9, () => ({ operator: '$or', children: Array.from({ length: randomInt(random, 1, 3) }, () => gatewayWay(random)) }));
}

// The `crawlers` shape: written after the third round of work on the plan's analyses (issue
// #42), once that work had landed, and not tuned for: run once and reported as it came out.
// Search-engine and partner crawler rules as a bot team writes them: each names a crawler by a
// user-agent token (60 tokens, `$contains`, or a `$re` over a family of them), then either lets
// it in from its own networks (`$in` one to four of 80 ASNs, or a /12–/20 address range) or
// blocks the same token from anywhere else (`$notIn` the same kind of list); one rule in five
// instead holds a country list with a header that must (or must not) be there.
const CRAWLER_TOKENS = Array.from({ length: 60 }, (_, i) => `crawler-${i}`);
const CRAWLER_ASNS = Array.from({ length: 80 }, (_, i) => String(15000 + i * 7));
const CRAWLER_COUNTRIES = ['US', 'CA', 'DE', 'FR', 'GB', 'NL', 'JP', 'SG', 'BR', 'IN', 'CN', 'RU'];

function crawlerName(random) {
  return random() < 0.8
    ? { conditionType: 'userAgent', operator: '$contains', value: pick(random, CRAWLER_TOKENS) }
    : { conditionType: 'userAgent', operator: '$re', value: [`crawler-${randomInt(random, 1, 5)}[0-9]`] };
}

function crawlerNetworks(random, operator) {
  if (random() < 0.7) {
    return { conditionType: 'socketIpASN', operator, value: [...new Set(Array.from({ length: randomInt(random, 1, 4) }, () => pick(random, CRAWLER_ASNS)))] };
  }
  const bits = randomInt(random, 12, 20);
  const range = `10.${randomInt(random, 0, 15) * 16}.0.0/${bits}`;
  return { conditionType: 'socketIps', operator, value: [range] };
}

function crawlerRules(random, count) {
  return Array.from({ length: count }, (_, i) => {
    const kind = random();
    const allow = kind < 0.4;
    const children = kind < 0.8
      ? [crawlerName(random), crawlerNetworks(random, allow ? '$in' : '$notIn')]
      : [
          { conditionType: 'country', operator: '$in', value: [...new Set([pick(random, CRAWLER_COUNTRIES), pick(random, CRAWLER_COUNTRIES)])] },
          { conditionType: 'header', fieldOption: pick(random, ['x-forwarded-for', 'accept-language', 'x-crawler-token']), operator: random() < 0.5 ? '$exists' : '$notExists' },
        ];
    return {
      name: `Crawler rule ${String(i + 1).padStart(5, '0')}`,
      description: '',
      status: random() < 0.9 ? 'active' : 'paused',
      actions: allow ? ['allow'] : [...pick(random, ACTION_SETS.slice(1))],
      conditions: { operator: '$or', children: [{ operator: '$and', children }] },
    };
  });
}

// The `checkouts` shape: written during the fourth round of work on the plan's analyses (issue
// #42), before any of that round's figures were seen, added once the work had landed and run as
// it came out, not tuned for. Payment-fraud rules of a shop: each guards checkout paths (`$in`
// one to three of 24 exact paths, or a `$startsWith` of 6 prefixes) for one or two write
// methods, then adds one test of risk: a custom risk score (`$in` of levels), a device type,
// a country outside a list of 3–8 of 40 (`$notIn`), a missing or present cookie-like header, a
// card-number-looking query value (`$re`), or a user agent that does not end like a browser
// (`$notEndsWith`); one rule in four has two ways in under an `$or`, differing in that test.
const CHECKOUT_PATHS = Array.from({ length: 24 }, (_, i) => `/checkout/step-${i % 6}/${['card', 'wallet', 'bnpl', 'gift'][i % 4]}`);
const CHECKOUT_PREFIXES = ['/checkout/', '/cart/', '/pay/', '/api/orders/', '/api/payments/', '/giftcards/'];
const CHECKOUT_COUNTRIES = ['US', 'CA', 'MX', 'BR', 'AR', 'CL', 'CO', 'PE', 'GB', 'IE', 'FR', 'DE', 'NL', 'BE', 'ES', 'PT', 'IT', 'CH', 'AT', 'PL', 'CZ', 'SE', 'NO', 'DK', 'FI', 'RO', 'UA', 'TR', 'IL', 'AE', 'SA', 'EG', 'NG', 'ZA', 'IN', 'CN', 'JP', 'KR', 'SG', 'AU'];
const CHECKOUT_RISKS = [
  (r) => ({ conditionType: 'customParam', fieldOption: 'risk_score', operator: '$in', value: [...new Set([pick(r, ['high', 'critical', 'medium']), pick(r, ['high', 'critical'])])] }),
  (r) => ({ conditionType: 'deviceType', operator: '$eq', value: pick(r, ['desktop', 'mobile', 'tablet']) }),
  (r) => ({ conditionType: 'country', operator: '$notIn', value: [...new Set(Array.from({ length: randomInt(r, 3, 8) }, () => pick(r, CHECKOUT_COUNTRIES)))] }),
  (r) => ({ conditionType: 'header', fieldOption: pick(r, ['x-session', 'x-device-id', 'referer']), operator: r() < 0.5 ? '$notExists' : '$exists' }),
  (r) => ({ conditionType: 'queryParam', fieldOption: pick(r, ['card', 'pan', 'number']), operator: '$re', value: [pick(r, ['^[0-9]{13,19}$', '^4[0-9]{12}', '^5[1-5][0-9]{14}$'])] }),
  (r) => ({ conditionType: 'userAgent', operator: '$notEndsWith', value: pick(r, ['Safari/537.36', 'Firefox/120.0', 'Mobile']) }),
];

function checkoutRules(random, count) {
  return Array.from({ length: count }, (_, i) => {
    const place = random() < 0.6
      ? { conditionType: 'path', operator: '$in', value: [...new Set(Array.from({ length: randomInt(random, 1, 3) }, () => pick(random, CHECKOUT_PATHS)))] }
      : { conditionType: 'path', operator: '$startsWith', value: pick(random, CHECKOUT_PREFIXES) };
    const methods = [...new Set([pick(random, ['POST', 'PUT']), pick(random, ['POST', 'PUT', 'PATCH'])])];
    const method = methods.length === 1 ? { conditionType: 'httpMethod', operator: '$eq', value: methods[0] } : { conditionType: 'httpMethod', operator: '$in', value: methods };
    return {
      name: `Checkout rule ${String(i + 1).padStart(5, '0')}`,
      description: '',
      status: random() < 0.88 ? 'active' : 'paused',
      actions: [...pick(random, ACTION_SETS)],
      // One way in, or (one rule in four) two ways that differ in their risk test.
      conditions: random() >= 0.25
        ? { operator: '$and', children: [{ operator: '$and', children: [place, method, pick(random, CHECKOUT_RISKS)(random)] }] }
        : { operator: '$or', children: [0, 1].map(() => ({ operator: '$and', children: [place, method, pick(random, CHECKOUT_RISKS)(random)] })) },
    };
  });
}

// The `logins` shape: written during the fifth round of work on the plan's analyses (issue #42),
// before any of that round's figures were seen, added once the work had landed and run as it
// came out, not tuned for. Credential-stuffing rules of a login service: each guards one of 12
// login endpoints (`$eq` an exact path, or one rule in five a `$re` over a family of them) for
// POST, then one or two tests of who is asking: source addresses (`$in` one to five of 200
// IPv4 and IPv6 addresses and ranges), a country list (`$in` or `$notIn` two to six of 30), a
// user agent that starts like a tool, a failed-logins count kept by the shop (`$in` of counts),
// or an SSO header that must be missing; one rule in six lets a partner's SSO in instead (its
// host by `$eq` and the header present) under an `$or` beside the login way.
const LOGIN_PATHS = ['/login', '/signin', '/api/login', '/api/v1/login', '/api/v2/login', '/auth/token', '/oauth/token', '/account/login', '/m/login', '/admin/login', '/api/v1/session', '/sso/callback'];
const LOGIN_PATTERNS = ['^/(api/)?(v[12]/)?login$', '^/(oauth|auth)/token$', '^/(m|account|admin)/login$'];
const LOGIN_ADDRESSES = Array.from({ length: 200 }, (_, i) => {
  if (i % 5 === 4) return `2001:db8:${(i * 37).toString(16)}::/48`;
  if (i % 3 === 0) return `198.18.${i}.0/24`;
  return `203.${i % 250}.${(i * 7) % 250}.${(i * 13) % 250}`;
});
const LOGIN_COUNTRIES = ['US', 'CA', 'GB', 'DE', 'FR', 'ES', 'IT', 'NL', 'SE', 'PL', 'RU', 'UA', 'BY', 'CN', 'HK', 'VN', 'TH', 'ID', 'IN', 'PK', 'BD', 'NG', 'GH', 'KE', 'BR', 'AR', 'MX', 'CO', 'TR', 'IR'];
const LOGIN_TESTS = [
  (r) => ({ conditionType: 'socketIps', operator: '$in', value: [...new Set(Array.from({ length: randomInt(r, 1, 5) }, () => pick(r, LOGIN_ADDRESSES)))] }),
  (r) => ({ conditionType: 'country', operator: r() < 0.5 ? '$in' : '$notIn', value: [...new Set(Array.from({ length: randomInt(r, 2, 6) }, () => pick(r, LOGIN_COUNTRIES)))] }),
  (r) => ({ conditionType: 'userAgent', operator: '$startsWith', value: pick(r, ['python-', 'curl/', 'Go-http-client', 'okhttp', 'Java/', 'node-fetch']) }),
  (r) => ({ conditionType: 'customParam', fieldOption: 'failed_logins', operator: '$in', value: Array.from({ length: randomInt(r, 1, 4) }, (_, k) => String(5 * (k + randomInt(r, 1, 6)))) }),
  (_r) => ({ conditionType: 'header', fieldOption: 'x-sso-assertion', operator: '$notExists' }),
];

function loginWay(random) {
  const place = random() < 0.8
    ? { conditionType: 'path', operator: '$eq', value: pick(random, LOGIN_PATHS) }
    : { conditionType: 'path', operator: '$re', value: [pick(random, LOGIN_PATTERNS)] };
  const tests = Array.from({ length: randomInt(random, 1, 2) }, () => pick(random, LOGIN_TESTS)(random));
  // Two picks of the same kind would read the same field twice: keep the first of each.
  const seen = new Set();
  const distinct = tests.filter((leaf) => !seen.has(leaf.conditionType) && seen.add(leaf.conditionType));
  return { operator: '$and', children: [place, { conditionType: 'httpMethod', operator: '$eq', value: 'POST' }, ...distinct] };
}

function loginRules(random, count) {
  return Array.from({ length: count }, (_, i) => {
    const way = loginWay(random);
    const partner = { operator: '$and', children: [
      { conditionType: 'domain', operator: '$eq', value: `sso-${randomInt(random, 1, 12)}.partners.example` },
      { conditionType: 'header', fieldOption: 'x-sso-assertion', operator: '$exists' },
    ] };
    return {
      name: `Login rule ${String(i + 1).padStart(5, '0')}`,
      description: '',
      status: random() < 0.9 ? 'active' : 'paused',
      actions: [...pick(random, ACTION_SETS)],
      conditions: random() < 1 / 6 ? { operator: '$or', children: [way, partner] } : { operator: '$and', children: [way] },
    };
  });
}

// The `media` shape: written at the start of the sixth round of work on the plan's analyses
// (issue #42), before any of that round's figures were seen, added once the work had landed and
// run as it came out, not tuned for. Hotlink and scraper rules of a media site: each rule is a
// root `$and` of one group (one in four a root `$or` of one or two), a group naming what is fetched (a
// file suffix by `$endsWith`, or a `/media/N/` prefix of 50 libraries) and one or two tests of who
// fetches it: a referer outside one to four of 25 partner origins (or no referer at all), a
// missing signature or an expiry that is not a ten-digit time, a device type, an ASN outside one
// to six of 40 networks, or a CDN host other than its own (`$ne`, 12 hosts).
const MEDIA_SUFFIXES = ['.m3u8', '.ts', '.mp4', '.jpg', '.webp', '.pdf'];
const MEDIA_ORIGINS = Array.from({ length: 25 }, (_, i) => `https://partner-${i}.example`);
const MEDIA_ASNS = Array.from({ length: 40 }, (_, i) => String(64500 + i * 3));
const MEDIA_TESTS = [
  (r) => (r() < 0.7
    ? { conditionType: 'header', fieldOption: 'referer', operator: '$notIn', value: [...new Set(Array.from({ length: randomInt(r, 1, 4) }, () => pick(r, MEDIA_ORIGINS)))] }
    : { conditionType: 'header', fieldOption: 'referer', operator: '$notExists' }),
  (r) => (r() < 0.5
    ? { conditionType: 'queryParam', fieldOption: 'sig', operator: '$notExists' }
    : { conditionType: 'queryParam', fieldOption: 'expires', operator: '$re', value: ['^[0-9]{10}$'] }),
  (r) => (r() < 0.5
    ? { conditionType: 'deviceType', operator: '$in', value: ['mobile', 'tablet'] }
    : { conditionType: 'deviceType', operator: '$eq', value: 'desktop' }),
  (r) => ({ conditionType: 'socketIpASN', operator: '$notIn', value: [...new Set(Array.from({ length: randomInt(r, 1, 6) }, () => pick(r, MEDIA_ASNS)))] }),
  (r) => ({ conditionType: 'domain', operator: '$ne', value: `cdn-${randomInt(r, 1, 12)}.media.example` }),
];

function mediaGroup(random) {
  const what = random() < 0.6
    ? { conditionType: 'path', operator: '$endsWith', value: pick(random, MEDIA_SUFFIXES) }
    : { conditionType: 'path', operator: '$startsWith', value: `/media/${randomInt(random, 1, 50)}/` };
  const tests = Array.from({ length: randomInt(random, 1, 2) }, () => pick(random, MEDIA_TESTS)(random));
  // Two picks reading the same field: keep the first.
  const seen = new Set();
  const distinct = tests.filter((leaf) => {
    const field = `${leaf.conditionType}:${leaf.fieldOption ?? ''}`;
    return !seen.has(field) && seen.add(field);
  });
  return { operator: '$and', children: [what, ...distinct] };
}

function mediaRules(random, count) {
  return namedRules(random, count, 'Media', 0.9, () => random() < 0.25
    ? { operator: '$or', children: Array.from({ length: randomInt(random, 1, 2) }, () => mediaGroup(random)) }
    : { operator: '$and', children: [mediaGroup(random)] });
}

/** Shapes appended after ruleSet was written: `ruleSet` for those, and theirs for these. */
export const PLAN_ONLY_SHAPES = ['gateways', 'crawlers', 'checkouts', 'logins', 'media', ...Object.keys(LATE_SHAPES)];

export function anyRuleSet(shape, count) {
  if (!PLAN_ONLY_SHAPES.includes(shape)) return ruleSet(shape, count);
  if (shape in LATE_SHAPES) return lateRuleSet(shape, count);
  const random = seededRandom(count);
  const generators = { gateways: gatewayRules, crawlers: crawlerRules, checkouts: checkoutRules, logins: loginRules, media: mediaRules };
  const rules = generators[shape](random, count);
  return rules.map((rule, i) => ({ ...rule, ruleId: `r-${String(i).padStart(5, '0')}`, priority: i }));
}
