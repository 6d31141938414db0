// The rule shapes of the replay benchmark (bench/replay.bench.js), 1,000 rules each: generated
// (the emulator's rules, whose random extras make early catch-alls), themed (their themes alone),
// distinct (every rule its own values), last (most requests reach the last rule), and the shapes
// written after the work they measure, not tuned for: untuned and tenants (after the engines),
// partners (after the js engine's text and pattern guards), regions (after the duckdb engine's
// classes of values), fleets (after the js engine's address-block index), checkouts (after the
// duckdb engine's classing by looked-up texts), logins (after its classing by contained texts), agents, hosts, payments and feeds (bench/replay-shapes-late.js, each kept from one round's work: the eighth to the eleventh).
import { seededRandom } from '../dist/emulator/random.js';
import { generateRules } from '../dist/emulator/generate-rules.js';
import { LATE_REPLAY_SHAPES } from './replay-shapes-late.js';

const RULES = 1_000;

/** Rules as the emulator generates them (ten themes, random extra groups, 15% paused). */
function generatedRules() {
  return generateRules(seededRandom(7), RULES);
}

/**
 * The generated rules' themes alone (no random extra groups): no rule is a catch-all, so most
 * requests are tried against several rules before one decides or none does.
 */
function themedRules() {
  return generatedRules().map((rule) => ({ ...rule, conditions: { operator: '$and', children: [rule.conditions.children[0]] } }));
}

/** Rules that each test their own values: the index's good case, no rule shares a guard. */
function distinctRules() {
  return Array.from({ length: RULES }, (_, i) => ({
    name: `distinct ${i}`, description: '', status: 'active', actions: [['allow'], ['blockWithChallenge'], ['hardBlock']][i % 3],
    conditions: { operator: '$or', children: [
      { operator: '$and', children: [
        { conditionType: 'path', operator: '$startsWith', value: `/shop/${i}/` },
        { conditionType: 'userAgent', operator: '$re', value: [`bot-${i}\\b`] },
      ] },
      { operator: '$and', children: [
        { conditionType: 'header', fieldOption: `x-client-${i}`, operator: '$exists' },
        { conditionType: 'socketIps', operator: '$in', value: [`10.${i % 256}.0.0/16`] },
      ] },
    ] },
  }));
}

/** Most requests reach the last rule: 999 rules about values the log never carries, then a catch-all. */
function lastRules() {
  return Array.from({ length: RULES }, (_, i) => ({
    name: `last ${i}`, description: '', status: 'active', actions: i === RULES - 1 ? ['allow'] : [['blockWithChallenge'], ['hardBlock']][i % 2],
    conditions: { operator: '$and', children: [{ operator: '$or', children: i === RULES - 1
      ? [{ conditionType: 'httpMethod', operator: '$in', value: ['GET', 'POST'] }]
      : [{ conditionType: 'userAgent', operator: '$contains', value: `never-${i}` }, { conditionType: 'path', operator: '$endsWith', value: `.never${i}` }] }] },
  }));
}

/**
 * Written after the engines were done, and not tuned for: rules mixing a country, an ASN and a
 * negated header test with a query parameter pattern, each its own values.
 */
function untunedRules() {
  return Array.from({ length: RULES }, (_, i) => ({
    name: `untuned ${i}`, description: '', status: i % 7 === 0 ? 'paused' : 'active', actions: [['hardBlock'], ['allow'], ['blockWithChallenge']][i % 3],
    conditions: { operator: '$or', children: [
      { operator: '$and', children: [
        { conditionType: 'country', operator: '$notIn', value: ['US', 'DE'] },
        { conditionType: 'socketIpASN', operator: '$eq', value: String(13335 + (i % 50)) },
      ] },
      { operator: '$and', children: [
        { conditionType: 'header', fieldOption: 'accept-language', operator: '$ne', value: `x-${i}` },
        { conditionType: 'queryParam', fieldOption: 'page', operator: '$re', value: [`^${i % 2000}$`] },
      ] },
    ] },
  }));
}

/**
 * Written after the native DuckDB reading was done, and not tuned for: tenants' rules, each a
 * path prefix or a user-agent pattern (every tenth one a lookahead, outside RE2, which the
 * duckdb engine asks JavaScript for) with a method or a domain suffix; a third paused.
 */
function tenantRules() {
  return Array.from({ length: RULES }, (_, i) => ({
    name: `tenant ${i}`, description: '', status: i % 3 === 0 ? 'paused' : 'active', actions: [['allow'], ['hardBlock'], ['blockWithChallenge']][i % 3],
    conditions: { operator: '$and', children: [
      { operator: '$or', children: [
        { conditionType: 'path', operator: '$startsWith', value: `/shop/${(i * 7) % 1200}/` },
        { conditionType: 'userAgent', operator: '$re', value: [i % 10 === 0 ? `^(?!Mozilla).*bot-${i}$` : `(?:^|[^a-z])bot-${i}$`] },
      ] },
      { operator: '$or', children: [
        { conditionType: 'httpMethod', operator: '$in', value: [i % 2 === 0 ? 'GET' : 'POST'] },
        { conditionType: 'domain', operator: '$endsWith', value: `.example.${i % 4 === 0 ? 'com' : 'org'}` },
      ] },
    ] },
  }));
}

/**
 * Written after the js engine's text and pattern guards, and not tuned for: partners' rules, each
 * a user-agent text with a device type, or an API path pattern (an alternation inside) with a
 * referrer domain; every fifth pattern case-insensitive by a class, every eleventh rule paused.
 */
function partnerRules() {
  return Array.from({ length: RULES }, (_, i) => ({
    name: `partner ${i}`, description: '', status: i % 11 === 0 ? 'paused' : 'active', actions: [['blockWithChallenge'], ['allow'], ['hardBlock']][i % 3],
    conditions: { operator: '$or', children: [
      { operator: '$and', children: [
        { conditionType: 'userAgent', operator: '$contains', value: `partner-${i}/` },
        { conditionType: 'deviceType', operator: '$ne', value: i % 2 === 0 ? 'mobile' : 'desktop' },
      ] },
      { operator: '$and', children: [
        { conditionType: 'path', operator: '$re', value: [i % 5 === 0 ? `^/[Aa][Pp][Ii]/v${i % 3}/(items|cart)/${i}$` : `^/api/v${i % 3}/(items|cart)/${i}(/|$)`] },
        { conditionType: 'header', fieldOption: 'referer', operator: '$endsWith', value: `.partner-${i % 40}.net` },
      ] },
    ] },
  }));
}

/**
 * Written after the duckdb engine's classes of values, and not tuned for: regional rules, each a
 * list of countries with an address range not aligned to a byte (a /20), or a header text with a
 * path suffix and a device type; every ninth rule paused, every thirteenth a query parameter's presence.
 */
function regionRules() {
  const COUNTRIES = ['US', 'DE', 'FR', 'KP', 'BR', 'IN', 'JP'];
  return Array.from({ length: RULES }, (_, i) => ({
    name: `region ${i}`, description: '', status: i % 9 === 0 ? 'paused' : 'active', actions: [['hardBlock'], ['blockWithChallenge'], ['allow']][i % 3],
    conditions: { operator: '$or', children: [
      { operator: '$and', children: [
        { conditionType: 'country', operator: '$in', value: [COUNTRIES[i % 7], COUNTRIES[(i * 3) % 7]] },
        { conditionType: 'socketIps', operator: '$in', value: [`198.${i % 256}.${(i * 16) % 256}.0/20`] },
      ] },
      { operator: '$and', children: [
        { conditionType: 'header', fieldOption: 'accept-language', operator: '$contains', value: `x${i}` },
        i % 13 === 0
          ? { conditionType: 'queryParam', fieldOption: `p${i}`, operator: '$exists' }
          : { conditionType: 'path', operator: '$endsWith', value: `/${i % 40}/item` },
        { conditionType: 'deviceType', operator: '$eq', value: i % 2 === 0 ? 'mobile' : 'desktop' },
      ] },
    ] },
  }));
}

/**
 * Written after the js engine's address-block index and its choice of the least shared guard
 * (the work that brought `regions` within 10× of the floor), and not tuned for: fleets of
 * clients, each rule an ASN list with an API path prefix (every fifth also not a GET), or
 * address ranges of both families (an IPv4 /21, an IPv6 /48) with a user-agent pattern; every
 * seventeenth rule paused.
 */
function fleetRules() {
  const ASNS = ['13335', '16509', '9009', '7922', '14061', '24940'];
  return Array.from({ length: RULES }, (_, i) => ({
    name: `fleet ${i}`, description: '', status: i % 17 === 0 ? 'paused' : 'active', actions: [['blockWithChallenge'], ['hardBlock'], ['allow']][i % 3],
    conditions: { operator: '$or', children: [
      { operator: '$and', children: [
        { conditionType: 'socketIpASN', operator: '$in', value: [ASNS[i % 6], ASNS[(i + 2) % 6]] },
        { conditionType: 'path', operator: '$startsWith', value: `/api/v${i % 3}/` },
        ...(i % 5 === 0 ? [{ conditionType: 'httpMethod', operator: '$ne', value: 'GET' }] : []),
      ] },
      { operator: '$and', children: [
        { conditionType: 'socketIps', operator: '$in', value: [`10.${i % 256}.${(i * 8) % 256}.0/21`, `2001:db8:${i.toString(16)}::/48`] },
        { conditionType: 'userAgent', operator: '$re', value: [`^curl/${i % 9}\\.`] },
      ] },
    ] },
  }));
}

/**
 * Written during the fifth round of work on the engines (issue #37), before any of that round's
 * figures were seen, added once the work had landed and run as it came out, not tuned for:
 * checkout fraud rules — a path (`$in` two exact shop paths, or a `$startsWith` of a shop's
 * prefix) with a method, then a risk test: a country outside a list (`$notIn`), a device type, a
 * query value pattern (`$re`), a header that is missing, or a user agent that does not end like
 * a browser (`$notEndsWith`); every eleventh rule paused, every fourth an `$or` of two ways in
 * that differ in their risk test.
 */
function checkoutRules() {
  const COUNTRIES = ['US', 'DE', 'FR', 'BR', 'GB', 'CA', 'JP', 'IN'];
  const risks = [
    (i) => ({ conditionType: 'country', operator: '$notIn', value: [COUNTRIES[i % 8], COUNTRIES[(i + 3) % 8], COUNTRIES[(i + 5) % 8]] }),
    (i) => ({ conditionType: 'deviceType', operator: '$eq', value: ['desktop', 'mobile', 'tablet'][i % 3] }),
    (i) => ({ conditionType: 'queryParam', fieldOption: ['page', 'coupon', 'card'][i % 3], operator: '$re', value: [`^[0-9]{${1 + (i % 4)},}$`] }),
    (i) => ({ conditionType: 'header', fieldOption: ['x-session', 'referer', 'x-device-id'][i % 3], operator: '$notExists' }),
    (i) => ({ conditionType: 'userAgent', operator: '$notEndsWith', value: `Safari/${500 + (i % 40)}.36` }),
  ];
  return Array.from({ length: RULES }, (_, i) => {
    const place = i % 3 === 0
      ? { conditionType: 'path', operator: '$startsWith', value: `/shop/${i % 1200}/` }
      : { conditionType: 'path', operator: '$in', value: [`/shop/${i % 1200}/item`, `/checkout/${i}`] };
    const method = { conditionType: 'httpMethod', operator: '$eq', value: i % 2 === 0 ? 'POST' : 'GET' };
    const way = (risk) => ({ operator: '$and', children: [place, method, risk] });
    return {
      name: `checkout ${i}`, description: '', status: i % 11 === 0 ? 'paused' : 'active', actions: [['blockWithChallenge'], ['hardBlock'], ['allow']][i % 3],
      conditions: i % 4 === 0 ? { operator: '$or', children: [way(risks[i % 5](i)), way(risks[(i + 2) % 5](i))] } : { operator: '$and', children: [way(risks[i % 5](i))] },
    };
  });
}

/**
 * Written during the sixth round of work on the engines (issue #37), before any of that round's
 * figures were seen, added once the work had landed and run as it came out, not tuned for:
 * credential-stuffing rules of a login service — a login path (`$eq` one of six, or a `$re` over
 * a family of them) for POST, then one or two tests of who asks: source addresses (`$in` an IPv4
 * /20 and an address, or an IPv6 /40), a country list (`$in` or `$notIn` two to four), a user
 * agent that starts like a tool (`$startsWith`), a header that must be missing, or a query
 * value (`$ne`); every ninth rule paused, every sixth an `$or` with a partner's single sign-on
 * (its host `$endsWith` and a header present).
 */
function loginRules() {
  const PATHS = ['/login', '/api/v1/login', '/account/login', '/signin', '/oauth/token', '/m/login'];
  const PATTERNS = ['^/(api/v1/)?login$', '^/(account|m)/login$', '^/(signin|oauth/token)$'];
  const COUNTRIES = ['KP', 'BR', 'US', 'DE', 'FR', 'RU', 'CN', 'IN', 'NG'];
  const TOOLS = ['python-', 'curl/', 'Scrapy', 'Go-http', 'okhttp', 'Headless'];
  const tests = [
    (i) => ({ conditionType: 'socketIps', operator: '$in', value: [`198.${i % 256}.${(i * 16) % 256}.0/20`, `10.${i % 200}.1.${i % 250}`, `2001:db8:${((i * 3) % 256).toString(16)}00::/40`] }),
    (i) => ({ conditionType: 'country', operator: i % 2 === 0 ? '$in' : '$notIn', value: [COUNTRIES[i % 9], COUNTRIES[(i + 4) % 9], ...(i % 3 === 0 ? [COUNTRIES[(i + 7) % 9]] : [])] }),
    (i) => ({ conditionType: 'userAgent', operator: '$startsWith', value: `${TOOLS[i % 6]}${i % 7 === 0 ? '2' : ''}` }),
    (i) => ({ conditionType: 'header', fieldOption: ['x-sso', 'x-csrf-token', 'referer'][i % 3], operator: '$notExists' }),
    (i) => ({ conditionType: 'queryParam', fieldOption: 'page', operator: '$ne', value: String(i % 50) }),
  ];
  return Array.from({ length: RULES }, (_, i) => {
    const place = i % 5 === 4
      ? { conditionType: 'path', operator: '$re', value: [PATTERNS[i % 3]] }
      : { conditionType: 'path', operator: '$eq', value: PATHS[i % 6] };
    const checks = i % 4 === 0 ? [tests[i % 5](i), tests[(i + 1) % 5](i)] : [tests[i % 5](i)];
    const way = { operator: '$and', children: [place, { conditionType: 'httpMethod', operator: '$eq', value: 'POST' }, ...checks] };
    const partner = { operator: '$and', children: [
      { conditionType: 'domain', operator: '$endsWith', value: `.sso-${i % 12}.example` },
      { conditionType: 'header', fieldOption: 'x-sso', operator: '$exists' },
    ] };
    return {
      name: `login ${i}`, description: '', status: i % 9 === 0 ? 'paused' : 'active', actions: [['blockWithChallenge'], ['hardBlock'], ['allow']][i % 3],
      conditions: i % 6 === 0 ? { operator: '$or', children: [way, partner] } : { operator: '$and', children: [way] },
    };
  });
}

/** The rules of a shape, by its name (the late shapes of bench/replay-shapes-late.js last). */
export const REPLAY_SHAPES = { generated: generatedRules, themed: themedRules, distinct: distinctRules, last: lastRules, untuned: untunedRules, tenants: tenantRules, partners: partnerRules, regions: regionRules, fleets: fleetRules, checkouts: checkoutRules, logins: loginRules, ...LATE_REPLAY_SHAPES };
