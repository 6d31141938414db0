// A plan shape written at the start of the seventeenth round (issue #42), kept off the branches
// that did that round's work on the plan's analyses, and first run in the round's closing
// benchmark; a file of its own like plan-shapes-latest.js's. Nothing was tuned for it.
import { pick } from '../dist/emulator/random.js';
import { namedRules, some } from './rule-shapes.js';

// The `tickets` shape: an event-ticketing site guarding its on-sales and queue. A root `$and` of
// one group (one in three a root `$or` of two groups). A group is a sales surface — one of 300
// event pages by `$startsWith`, one of six queue and checkout paths by `$eq`, a POST or PUT to
// the box-office host, or (one in six) the whole site — then one to three signs of a scalper: no
// queue token header, a presale code query parameter present or in one to four of 20 codes, a
// hosting network (one to five of 60 ASNs), a country among one to four of 30, a `sec-ch-ua`
// header missing, a user agent matching one of five automation patterns, a seat-count custom
// parameter of 6 or more, a desktop device, or an address inside one of 24 IPv4 /20 ranges.
const EVENT_PREFIXES = Array.from({ length: 300 }, (_, i) => `/events/${(1000 + i * 37).toString(36)}/`);
const QUEUE_PATHS = ['/queue/join', '/queue/status', '/checkout/seats', '/checkout/pay', '/presale/unlock', '/resale/list'];
const PRESALE_CODES = Array.from({ length: 20 }, (_, i) => `FAN${(7919 * (i + 3)).toString(36).toUpperCase()}`);
const HOSTING_NETWORKS = Array.from({ length: 60 }, (_, i) => String(16_000 + i * 263));
const SALE_COUNTRIES = ['US', 'GB', 'IE', 'DE', 'FR', 'ES', 'IT', 'NL', 'BE', 'SE', 'NO', 'DK', 'PL', 'CZ', 'AT', 'CH', 'PT', 'CA', 'MX', 'BR', 'AR', 'AU', 'NZ', 'JP', 'KR', 'SG', 'IN', 'ZA', 'AE', 'TR'];
const AUTOMATION = ['Headless', 'PhantomJS', 'python-requests/[0-9.]+', '^curl/', 'Selenium|WebDriver'];
const RESALE_RANGES = Array.from({ length: 24 }, (_, i) => `${100 + (i % 12) * 9}.${(i * 53) % 256}.${(i % 4) * 64}.0/20`);
const SCALPER_SIGNS = [
  () => ({ conditionType: 'header', fieldOption: 'x-queue-token', operator: '$notExists' }),
  () => ({ conditionType: 'queryParam', fieldOption: 'presale', operator: '$exists' }),
  (r) => ({ conditionType: 'queryParam', fieldOption: 'presale', operator: '$in', value: some(r, PRESALE_CODES, 1, 4) }),
  (r) => ({ conditionType: 'socketIpASN', operator: '$in', value: some(r, HOSTING_NETWORKS, 1, 5) }),
  (r) => ({ conditionType: 'country', operator: '$in', value: some(r, SALE_COUNTRIES, 1, 4) }),
  () => ({ conditionType: 'header', fieldOption: 'sec-ch-ua', operator: '$notExists' }),
  (r) => ({ conditionType: 'userAgent', operator: '$re', value: [pick(r, AUTOMATION)] }),
  () => ({ conditionType: 'customParam', fieldOption: 'seats', operator: '$re', value: ['^([6-9]|[1-9][0-9]+)$'] }),
  () => ({ conditionType: 'deviceType', operator: '$eq', value: 'desktop' }),
  (r) => ({ conditionType: 'socketIps', operator: '$in', value: [pick(r, RESALE_RANGES)] }),
];

function salesGroup(random) {
  const roll = random();
  const surface = roll < 1 / 6 ? []
    : roll < 0.55 ? [{ conditionType: 'path', operator: '$startsWith', value: pick(random, EVENT_PREFIXES) }]
      : roll < 0.85 ? [{ conditionType: 'path', operator: '$eq', value: pick(random, QUEUE_PATHS) }]
        : [{ conditionType: 'domain', operator: '$eq', value: 'boxoffice.tickets.example' },
          { conditionType: 'httpMethod', operator: '$in', value: some(random, ['POST', 'PUT'], 1, 2) }];
  return { operator: '$and', children: [...surface, ...some(random, SCALPER_SIGNS, 1, 3).map((sign) => sign(random))] };
}

export function ticketRules(random, count) {
  return namedRules(random, count, 'Ticket', 0.92, () => random() < 1 / 3
    ? { operator: '$or', children: [salesGroup(random), salesGroup(random)] }
    : { operator: '$and', children: [salesGroup(random)] });
}
