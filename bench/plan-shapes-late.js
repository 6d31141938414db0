// Plan shapes written after a round of work on the plan's analyses (issue #42) had ended, in a
// file of their own so that the shapes measured before stay as they were measured. Each was run
// once, after the work, and reported as it came out: nothing was tuned for it.
import { pick, seededRandom } from '../dist/emulator/random.js';
import { namedRules, some } from './rule-shapes.js';
import { localeRules } from './plan-shapes-latest.js';
import { ticketRules } from './plan-shapes-final.js';
import { streamRules } from './plan-shapes-streams.js';

// The `signups` shape: written at the start of the eighth round, kept off the branches that did
// that round's work, and first run at its end. Account-opening abuse rules: a root `$and` of one
// group (one in three a root `$or` of two groups), a group being a sign-up endpoint (one of 10 paths by `$eq`, or
// a `$re` over a family of them) with POST, then one to three tests of who signs up: an e-mail
// domain (a custom parameter) in one to eight of 60 throw-away domains, an e-mail local part
// matching a pattern, a country outside one to five of 30, a missing captcha token header, an
// address inside one or two /16–/24 IPv4 ranges of 40, or a risk score custom parameter that is
// not `low`.
const SIGNUP_PATHS = ['/signup', '/register', '/join', '/api/signup', '/api/v1/users', '/api/v2/users', '/account/new', '/m/register', '/trial/start', '/invite/accept'];
const SIGNUP_PATTERNS = ['^/(api/)?(v[12]/)?(signup|users)$', '^/(m/)?register$', '^/(trial|invite)/'];
const THROWAWAY_DOMAINS = Array.from({ length: 60 }, (_, i) => `mail-${i}.example`);
const LOCAL_PATTERNS = ['^[a-z]{2,4}[0-9]{4,}$', '\\+[0-9]+$', '^test', '^[0-9a-f]{12}$'];
const SIGNUP_COUNTRIES = ['US', 'CA', 'GB', 'IE', 'DE', 'FR', 'NL', 'BE', 'ES', 'IT', 'PT', 'SE', 'NO', 'DK', 'FI', 'PL', 'CZ', 'AT', 'CH', 'AU', 'NZ', 'JP', 'KR', 'SG', 'IN', 'BR', 'MX', 'AR', 'ZA', 'IL'];
const SIGNUP_RANGES = Array.from({ length: 40 }, (_, i) => {
  const [first, second, bits] = [10 + (i % 5) * 40, (i * 37) % 256, i % 3 === 0 ? 16 : 20 + (i % 5)];
  const third = bits === 16 ? 0 : ((i * 11) % 256) & (256 - 2 ** (24 - bits));
  return `${first}.${second}.${third}.0/${bits}`;
});
const SIGNUP_TESTS = [
  (r) => ({ conditionType: 'customParam', fieldOption: 'email_domain', operator: '$in', value: some(r, THROWAWAY_DOMAINS, 1, 8) }),
  (r) => ({ conditionType: 'customParam', fieldOption: 'email_local', operator: '$re', value: [pick(r, LOCAL_PATTERNS)] }),
  (r) => ({ conditionType: 'country', operator: '$notIn', value: some(r, SIGNUP_COUNTRIES, 1, 5) }),
  () => ({ conditionType: 'header', fieldOption: 'x-captcha-token', operator: '$notExists' }),
  (r) => ({ conditionType: 'socketIps', operator: '$in', value: some(r, SIGNUP_RANGES, 1, 2) }),
  () => ({ conditionType: 'customParam', fieldOption: 'risk_score', operator: '$ne', value: 'low' }),
];

function signupGroup(random) {
  const endpoint = random() < 0.75
    ? { conditionType: 'path', operator: '$eq', value: pick(random, SIGNUP_PATHS) }
    : { conditionType: 'path', operator: '$re', value: [pick(random, SIGNUP_PATTERNS)] };
  const tests = some(random, SIGNUP_TESTS, 1, 3).map((test) => test(random));
  return { operator: '$and', children: [endpoint, { conditionType: 'httpMethod', operator: '$eq', value: 'POST' }, ...tests] };
}

function signupRules(random, count) {
  return namedRules(random, count, 'Signup', 0.9, () => random() < 1 / 3
    ? { operator: '$or', children: [signupGroup(random), signupGroup(random)] }
    : { operator: '$and', children: [signupGroup(random)] });
}

// The `apis` shape: written at the start of the ninth round, kept off the branches that did that
// round's work, and first run at its end. Partner API rules on a multi-host gateway: a root `$or`
// of one to three groups, a group being a host (one of 25 by `$eq`, or any partner host by
// `$endsWith`), a resource (a versioned path prefix of 40, or any path not ending in `.json`), then
// one or two tests: a missing API key header, a key in the query string, networks of one to four
// of 50 ASNs, a device other than a desktop, a writing method, or a tool's user agent.
const API_HOSTS = Array.from({ length: 25 }, (_, i) => `api-${i}.partner.example`);
const API_RESOURCES = Array.from({ length: 40 }, (_, i) => `/v${1 + (i % 3)}/${['orders', 'carts', 'prices', 'stock', 'users'][i % 5]}-${i}`);
const API_ASNS = Array.from({ length: 50 }, (_, i) => String(64_512 + i * 3));
const API_TOOLS = ['curl/', 'python-requests/', 'PostmanRuntime/', 'okhttp/', 'Go-http-client/'];
const API_TESTS = [
  () => ({ conditionType: 'header', fieldOption: 'x-api-key', operator: '$notExists' }),
  () => ({ conditionType: 'queryParam', fieldOption: 'api_key', operator: '$exists' }),
  (r) => ({ conditionType: 'socketIpASN', operator: '$in', value: some(r, API_ASNS, 1, 4) }),
  () => ({ conditionType: 'deviceType', operator: '$ne', value: 'desktop' }),
  () => ({ conditionType: 'httpMethod', operator: '$in', value: ['PUT', 'PATCH', 'DELETE'] }),
  (r) => ({ conditionType: 'userAgent', operator: '$startsWith', value: pick(r, API_TOOLS) }),
];

function apiGroup(random) {
  const host = random() < 0.8
    ? { conditionType: 'domain', operator: '$eq', value: pick(random, API_HOSTS) }
    : { conditionType: 'domain', operator: '$endsWith', value: '.partner.example' };
  const resource = random() < 0.85
    ? { conditionType: 'path', operator: '$startsWith', value: pick(random, API_RESOURCES) }
    : { conditionType: 'path', operator: '$notEndsWith', value: '.json' };
  const tests = some(random, API_TESTS, 1, 2).map((test) => test(random));
  return { operator: '$and', children: [host, resource, ...tests] };
}

function apiRules(random, count) {
  return namedRules(random, count, 'API', 0.85, () => ({ operator: '$or', children: Array.from({ length: 1 + Math.floor(random() * 3) }, () => apiGroup(random)) }));
}

// The `cards` shape: written at the start of the tenth round, kept off the branches that did that
// round's work, and first run at its end. Card-testing rules on payment endpoints: a root `$and` of
// one group (two in five a root `$or` of two), a group being the payment endpoints (two to five of
// 16 paths by `$in`, or any path holding `/pay`) with POST, then one to three tests: a card's
// issuer number (a custom parameter) in one to ten of 200, a device id header that is missing,
// networks outside one to three of 30 ASNs, a country in one to four of 30, a user agent of a
// scripted client family (`$re`), an attempt counter at three or more, or an address in one to
// three of 60 /24s.
const PAYMENT_PATHS = Array.from({ length: 16 }, (_, i) => `/${['checkout', 'billing', 'wallet', 'donate'][i % 4]}/pay-${i}`);
const CARD_BINS = Array.from({ length: 200 }, (_, i) => String(400_000 + i * 137));
const CARD_ASNS = Array.from({ length: 30 }, (_, i) => String(20_000 + i * 41));
const CARD_COUNTRIES = ['US', 'CA', 'GB', 'DE', 'FR', 'NL', 'SE', 'PL', 'RO', 'UA', 'RU', 'TR', 'IN', 'PK', 'BD', 'VN', 'ID', 'PH', 'NG', 'GH', 'KE', 'EG', 'BR', 'AR', 'CO', 'PE', 'MX', 'CN', 'HK', 'SG'];
const CARD_CLIENTS = ['^(python|node|axios|got)[-/]', '^Mozilla/5\\.0 \\(X11; Linux', 'Headless(Chrome|Firefox)', '^okhttp/[34]\\.'];
const CARD_NETS = Array.from({ length: 60 }, (_, i) => `${100 + (i % 7) * 11}.${(i * 29) % 256}.${(i * 53) % 256}.0/24`);
const CARD_TESTS = [
  (r) => ({ conditionType: 'customParam', fieldOption: 'card_bin', operator: '$in', value: some(r, CARD_BINS, 1, 10) }),
  () => ({ conditionType: 'header', fieldOption: 'x-device-id', operator: '$notExists' }),
  (r) => ({ conditionType: 'socketIpASN', operator: '$notIn', value: some(r, CARD_ASNS, 1, 3) }),
  (r) => ({ conditionType: 'country', operator: '$in', value: some(r, CARD_COUNTRIES, 1, 4) }),
  (r) => ({ conditionType: 'userAgent', operator: '$re', value: [pick(r, CARD_CLIENTS)] }),
  () => ({ conditionType: 'customParam', fieldOption: 'attempts', operator: '$in', value: ['3', '4', '5', 'more'] }),
  (r) => ({ conditionType: 'socketIps', operator: '$in', value: some(r, CARD_NETS, 1, 3) }),
];

function paymentGroup(random) {
  const endpoint = random() < 0.8
    ? { conditionType: 'path', operator: '$in', value: some(random, PAYMENT_PATHS, 2, 5) }
    : { conditionType: 'path', operator: '$contains', value: '/pay' };
  const tests = some(random, CARD_TESTS, 1, 3).map((test) => test(random));
  return { operator: '$and', children: [endpoint, { conditionType: 'httpMethod', operator: '$eq', value: 'POST' }, ...tests] };
}

function cardRules(random, count) {
  return namedRules(random, count, 'Card', 0.88, () => random() < 0.4
    ? { operator: '$or', children: [paymentGroup(random), paymentGroup(random)] }
    : { operator: '$and', children: [paymentGroup(random)] });
}

// The `scrapers` shape: written at the start of the eleventh round, kept off the branches that did
// that round's work, and first run at its end. Catalogue-scraping rules on a shop: a root `$and` of
// one group (one in four a root `$or` of two or three), a group being a catalogue area (a category
// prefix of 50 by `$startsWith`, two to six of 30 listing pages by `$in`, or product and search pages
// by `$re`), with GET or HEAD half the time, then one to three tests of who reads it: no
// accept-language or no referer header, a bot token in the user agent (`$contains`, 8), networks in
// one to six of 80 hosting ASNs, a deep page number in the query (`$re`), a country outside two to six
// of 25, a device that is not a phone, or an address outside one or two of 20 ranges (IPv4 /12–/16
// and IPv6 /32–/48).
const CATEGORY_PREFIXES = Array.from({ length: 50 }, (_, i) => `/c/${['shoes', 'bags', 'toys', 'garden', 'books'][i % 5]}-${i}/`);
const LISTING_PAGES = Array.from({ length: 30 }, (_, i) => `/list/${i}`);
const PRODUCT_PATTERNS = ['^/p/[0-9]+(/reviews)?$', '^/search(/|$)', '^/c/[a-z]+-[0-9]+/page-[0-9]+$'];
const BOT_TOKENS = ['bot', 'spider', 'crawl', 'scrape', 'fetch', 'python', 'Headless', 'Java/'];
const HOSTING_ASNS = Array.from({ length: 80 }, (_, i) => String(14_000 + i * 97));
const SCRAPER_COUNTRIES = ['US', 'CA', 'GB', 'DE', 'FR', 'NL', 'SE', 'PL', 'CZ', 'RO', 'UA', 'TR', 'IN', 'CN', 'HK', 'SG', 'JP', 'KR', 'VN', 'ID', 'BR', 'MX', 'AR', 'ZA', 'AU'];
const SCRAPER_RANGES = Array.from({ length: 20 }, (_, i) => i % 4 === 3
  ? `2001:db8:${(i * 7).toString(16)}::/${32 + (i % 3) * 8}`
  : `${20 + i * 9}.${((i * 48) % 256) & (i % 2 === 0 ? 0xf0 : 0xff)}.0.0/${i % 2 === 0 ? 12 : 16}`);
const SCRAPER_TESTS = [
  () => ({ conditionType: 'header', fieldOption: 'accept-language', operator: '$notExists' }),
  () => ({ conditionType: 'header', fieldOption: 'referer', operator: '$notExists' }),
  (r) => ({ conditionType: 'userAgent', operator: '$contains', value: pick(r, BOT_TOKENS) }),
  (r) => ({ conditionType: 'socketIpASN', operator: '$in', value: some(r, HOSTING_ASNS, 1, 6) }),
  () => ({ conditionType: 'queryParam', fieldOption: 'page', operator: '$re', value: ['^[0-9]{3,}$'] }),
  (r) => ({ conditionType: 'country', operator: '$notIn', value: some(r, SCRAPER_COUNTRIES, 2, 6) }),
  () => ({ conditionType: 'deviceType', operator: '$ne', value: 'mobile' }),
  (r) => ({ conditionType: 'socketIps', operator: '$notIn', value: some(r, SCRAPER_RANGES, 1, 2) }),
];

function catalogueGroup(random) {
  const roll = random();
  const area = roll < 0.5
    ? { conditionType: 'path', operator: '$startsWith', value: pick(random, CATEGORY_PREFIXES) }
    : roll < 0.8
      ? { conditionType: 'path', operator: '$in', value: some(random, LISTING_PAGES, 2, 6) }
      : { conditionType: 'path', operator: '$re', value: [pick(random, PRODUCT_PATTERNS)] };
  const method = random() < 0.5 ? [{ conditionType: 'httpMethod', operator: '$in', value: ['GET', 'HEAD'] }] : [];
  const tests = some(random, SCRAPER_TESTS, 1, 3).map((test) => test(random));
  return { operator: '$and', children: [area, ...method, ...tests] };
}

function scraperRules(random, count) {
  return namedRules(random, count, 'Scraper', 0.92, () => random() < 0.25
    ? { operator: '$or', children: Array.from({ length: 2 + Math.floor(random() * 2) }, () => catalogueGroup(random)) }
    : { operator: '$and', children: [catalogueGroup(random)] });
}

// The `webhooks` shape: written at the start of the twelfth round, kept off the branches that did
// that round's work, and first run at its end. Rules guarding inbound webhooks and partner
// integrations: a root `$and` of one group (one in five a root `$or` of two to four groups), a
// group being a provider's hook path (`$startsWith` one of 24 prefixes, or `$eq` one of 40 paths),
// on one of 12 API hosts by `$eq`, then one to three tests: a signature header that is
// absent, a provider header outside a list, an ASN in two to six of 30, a user agent containing a
// client family's name, an address in one to three /12–/28 ranges of IPv4 or IPv6, a `ts` query
// parameter matching a pattern, or a method other than POST.
const HOOK_PROVIDERS = Array.from({ length: 24 }, (_, i) => `/hooks/${['pay', 'ship', 'crm', 'mail', 'sms', 'git'][i % 6]}-${i}/`);
const HOOK_PATHS = Array.from({ length: 40 }, (_, i) => `/api/integrations/${i % 8}/events/${i}`);
const HOOK_HOSTS = Array.from({ length: 12 }, (_, i) => `api${i}.shop.example.com`);
const HOOK_ASNS = Array.from({ length: 30 }, (_, i) => String(64500 + i * 7));
const CLIENT_FAMILIES = ['okhttp', 'Go-http-client', 'axios', 'python-urllib', 'Java/', 'hookdeck'];
const HOOK_RANGES = Array.from({ length: 36 }, (_, i) => (i % 3 === 2
  ? `2001:db8:${(i * 13).toString(16)}::/${48 + (i % 4) * 8}`
  : `${20 + (i % 7) * 30}.${(i * 53) % 256}.${((i * 29) % 16) * 16}.0/${12 + (i % 5) * 4}`));
const HOOK_TESTS = [
  () => ({ conditionType: 'header', fieldOption: 'x-signature', operator: '$notExists' }),
  (r) => ({ conditionType: 'header', fieldOption: 'x-provider', operator: '$notIn', value: some(r, ['stripe', 'adyen', 'github', 'twilio', 'sendgrid'], 1, 3) }),
  (r) => ({ conditionType: 'socketIpASN', operator: '$in', value: some(r, HOOK_ASNS, 2, 6) }),
  (r) => ({ conditionType: 'userAgent', operator: '$contains', value: pick(r, CLIENT_FAMILIES) }),
  (r) => ({ conditionType: 'socketIps', operator: '$in', value: some(r, HOOK_RANGES, 1, 3) }),
  (r) => ({ conditionType: 'queryParam', fieldOption: 'ts', operator: '$re', value: [pick(r, ['^[0-9]{10}$', '^1[0-9]{9}', '[^0-9]'])] }),
  () => ({ conditionType: 'httpMethod', operator: '$ne', value: 'POST' }),
];

function hookGroup(random) {
  const endpoint = random() < 0.6
    ? { conditionType: 'path', operator: '$startsWith', value: pick(random, HOOK_PROVIDERS) }
    : { conditionType: 'path', operator: '$eq', value: pick(random, HOOK_PATHS) };
  const host = { conditionType: 'domain', operator: '$eq', value: pick(random, HOOK_HOSTS) };
  return { operator: '$and', children: [endpoint, host, ...some(random, HOOK_TESTS, 1, 3).map((test) => test(random))] };
}

function webhookRules(random, count) {
  return namedRules(random, count, 'Webhook', 0.9, () => random() < 0.2
    ? { operator: '$or', children: Array.from({ length: 2 + Math.floor(random() * 3) }, () => hookGroup(random)) }
    : { operator: '$and', children: [hookGroup(random)] });
}

// The `networks` shape: written in the fifteenth round after its work on the transition check's
// walk, and first run in the benchmark at its end. Rules against hosting and proxy networks: a
// root `$and` of one group (one in four a root `$or` of two or three groups), a group being a
// network test (one to five of 80 hosting ASNs, an address in one to three of 60 IPv4 and IPv6
// ranges, or a country in one to three of 20), then an area of the site in two of three (one of
// 15 path prefixes, or one of 12 hosts), then none to two tests of the client: a tool's user
// agent, no accept-language header, a debug query parameter, or a writing method.
const PROXY_ASNS = Array.from({ length: 80 }, (_, i) => String(14000 + i * 617));
const NETWORK_RANGES = Array.from({ length: 60 }, (_, i) => (i % 4 === 3
  ? `2a0${i % 10}:${(i * 97).toString(16)}::/${32 + (i % 3) * 8}`
  : `${45 + (i % 7) * 20}.${(i * 29) % 256}.${((i * 53) % 256) & (i % 2 === 0 ? 0xf0 : 0xff)}.0/${i % 2 === 0 ? 20 : 24}`));
const NETWORK_COUNTRIES = ['RU', 'CN', 'KP', 'IR', 'VN', 'UA', 'BY', 'NG', 'BR', 'IN', 'ID', 'TR', 'PK', 'BD', 'RO', 'HK', 'SG', 'NL', 'DE', 'US'];
const AREA_PREFIXES = ['/admin', '/wp-', '/api/internal', '/graphql', '/login', '/checkout', '/cart', '/account', '/search', '/export', '/reports', '/.env', '/xmlrpc', '/backup', '/staff'];
const AREA_HOSTS = Array.from({ length: 12 }, (_, i) => `${['www', 'shop', 'api', 'admin'][i % 4]}-${i}.example`);
const NETWORK_TESTS = [
  (r) => ({ conditionType: 'socketIpASN', operator: '$in', value: some(r, PROXY_ASNS, 1, 5) }),
  (r) => ({ conditionType: 'socketIps', operator: '$in', value: some(r, NETWORK_RANGES, 1, 3) }),
  (r) => ({ conditionType: 'country', operator: '$in', value: some(r, NETWORK_COUNTRIES, 1, 3) }),
];
const CLIENT_TESTS = [
  (r) => ({ conditionType: 'userAgent', operator: '$contains', value: pick(r, ['curl/', 'python', 'Go-http-client', 'HeadlessChrome']) }),
  () => ({ conditionType: 'header', fieldOption: 'accept-language', operator: '$notExists' }),
  () => ({ conditionType: 'queryParam', fieldOption: 'debug', operator: '$exists' }),
  () => ({ conditionType: 'httpMethod', operator: '$in', value: ['PUT', 'DELETE', 'PATCH'] }),
];

function networkGroup(random) {
  const area = random() < 1 / 3 ? []
    : random() < 0.5 ? [{ conditionType: 'path', operator: '$startsWith', value: pick(random, AREA_PREFIXES) }]
      : [{ conditionType: 'domain', operator: '$eq', value: pick(random, AREA_HOSTS) }];
  const clients = some(random, CLIENT_TESTS, 0, 2).map((test) => test(random));
  return { operator: '$and', children: [pick(random, NETWORK_TESTS)(random), ...area, ...clients] };
}

function networkRules(random, count) {
  return namedRules(random, count, 'Network', 0.9, () => random() < 0.25
    ? { operator: '$or', children: Array.from({ length: 2 + Math.floor(random() * 2) }, () => networkGroup(random)) }
    : { operator: '$and', children: [networkGroup(random)] });
}

/** The late shapes by name. */
export const LATE_SHAPES = { signups: signupRules, apis: apiRules, cards: cardRules, scrapers: scraperRules, webhooks: webhookRules, networks: networkRules, locales: localeRules, tickets: ticketRules, streams: streamRules };

export function lateRuleSet(shape, count) {
  const rules = LATE_SHAPES[shape](seededRandom(count + 8), count);
  return rules.map((rule, i) => ({ ...rule, ruleId: `r-${String(i).padStart(5, '0')}`, priority: i }));
}
