// Replay shapes written after a round of work on the duckdb engine (issue #37), in a file of
// their own so that the shapes measured before stay as they were measured. Each was run once,
// after the work, and reported as it came out: nothing was tuned for it.
const RULES = 1_000;

/**
 * `agents`: written at the start of the eighth round, kept off the branches that did that round's
 * work, and first run at its end. Scraper and agent rules by user agent: each names an agent (a
 * numbered bot by `$eq`, a family of them by `$re`, a tool by `$startsWith`, or a token by
 * `$contains`), then one test of where it comes from or what it asks: networks outside one to three
 * ASNs (`$notIn`), a /24 of source addresses, a country list, a shop page prefix, a device type, or
 * a query parameter that must be there; every seventh rule paused, every fifth an `$or` with a
 * monitor's way in (its header present and one ASN).
 */
function agentRules() {
  const TOOLS = ['python-', 'Scrapy/', 'curl/', 'Headless', 'Go-http', 'Mozilla/5.0 (iPhone)'];
  const TOKENS = ['Chrome/126', 'Safari/604', 'requests/2', 'bot', '.com_bot', 'Bot'];
  const ASNS = ['13335', '16509', '9009', '7922', '64500', '64501'];
  const COUNTRIES = ['US', 'DE', 'FR', 'KP', 'BR', 'CN', 'RU'];
  const agents = [
    (i) => ({ conditionType: 'userAgent', operator: '$eq', value: `bot-${(i * 7) % 1200}` }),
    (i) => ({ conditionType: 'userAgent', operator: '$re', value: [`^bot-${1 + (i % 9)}[0-9]{1,2}$`] }),
    (i) => ({ conditionType: 'userAgent', operator: '$startsWith', value: TOOLS[i % 6] }),
    (i) => ({ conditionType: 'userAgent', operator: '$contains', value: TOKENS[(i >> 2) % 6] }),
  ];
  const tests = [
    (i) => ({ conditionType: 'socketIpASN', operator: '$notIn', value: ASNS.slice(i % 4, (i % 4) + 1 + (i % 3)) }),
    (i) => ({ conditionType: 'socketIps', operator: '$in', value: [`198.${i % 256}.${(i * 13) % 256}.0/24`] }),
    (i) => ({ conditionType: 'country', operator: '$in', value: [COUNTRIES[i % 7], COUNTRIES[(i + 3) % 7]] }),
    (i) => ({ conditionType: 'path', operator: '$startsWith', value: `/shop/${(i * 11) % 1200}/` }),
    (i) => ({ conditionType: 'deviceType', operator: '$eq', value: i % 2 === 0 ? 'mobile' : 'desktop' }),
    (i) => ({ conditionType: 'queryParam', fieldOption: ['page', 'coupon', 'ref'][i % 3], operator: '$exists' }),
  ];
  return Array.from({ length: RULES }, (_, i) => {
    const way = { operator: '$and', children: [agents[i % 4](i), tests[(i >> 1) % 6](i)] };
    const monitor = { operator: '$and', children: [
      { conditionType: 'header', fieldOption: 'x-monitor', operator: '$exists' },
      { conditionType: 'socketIpASN', operator: '$eq', value: ASNS[i % 6] },
    ] };
    return {
      name: `agent ${i}`, description: '', status: i % 7 === 3 ? 'paused' : 'active', actions: [['hardBlock'], ['allow'], ['blockWithChallenge']][i % 3],
      conditions: i % 5 === 0 ? { operator: '$or', children: [way, monitor] } : { operator: '$and', children: [way] },
    };
  });
}

/**
 * `hosts`: written at the start of the ninth round, kept off the branches that did that round's
 * work, and first run at its end. Rules of a multi-host shop, by host: each names where it applies
 * (one of 40 hosts by `$eq`, a country site by `$endsWith`, or a host not among two by `$notIn`),
 * then one test: a path that does not end in a static suffix (`$notEndsWith`), a method other than
 * GET (`$ne`), a referer header that is missing, a user agent holding a token, a country outside a
 * list, or an address in a /20; every ninth rule paused, every fourth an `$or` of two such ways in.
 */
function hostRules() {
  const HOSTS = Array.from({ length: 40 }, (_, i) => `shop-${i}.example`);
  const SITES = ['.de', '.fr', '.co.uk', '.it', '.es'];
  const SUFFIXES = ['.js', '.css', '.png', '.svg', '.woff2'];
  const TOKENS = ['Headless', 'bot', 'Python', 'Java/', 'Wget'];
  const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'IT', 'ES', 'NL'];
  const hosts = [
    (i) => ({ conditionType: 'domain', operator: '$eq', value: HOSTS[(i * 3) % 40] }),
    (i) => ({ conditionType: 'domain', operator: '$endsWith', value: SITES[i % 5] }),
    (i) => ({ conditionType: 'domain', operator: '$notIn', value: [HOSTS[i % 40], HOSTS[(i + 7) % 40]] }),
  ];
  const tests = [
    (i) => ({ conditionType: 'path', operator: '$notEndsWith', value: SUFFIXES[i % 5] }),
    () => ({ conditionType: 'httpMethod', operator: '$ne', value: 'GET' }),
    () => ({ conditionType: 'header', fieldOption: 'referer', operator: '$notExists' }),
    (i) => ({ conditionType: 'userAgent', operator: '$contains', value: TOKENS[(i >> 1) % 5] }),
    (i) => ({ conditionType: 'country', operator: '$notIn', value: COUNTRIES.slice(i % 4, (i % 4) + 3) }),
    (i) => ({ conditionType: 'socketIps', operator: '$in', value: [`10.${i % 256}.${((i * 16) % 256) & 0xf0}.0/20`] }),
  ];
  const way = (i) => ({ operator: '$and', children: [hosts[i % 3](i), tests[(i >> 2) % 6](i)] });
  return Array.from({ length: RULES }, (_, i) => ({
    name: `host ${i}`, description: '', status: i % 9 === 4 ? 'paused' : 'active', actions: [['blockWithChallenge'], ['hardBlock'], ['allow']][i % 3],
    conditions: i % 4 === 0 ? { operator: '$or', children: [way(i), way(i + 17)] } : { operator: '$and', children: [way(i)] },
  }));
}

/**
 * `payments`: written at the start of the tenth round, kept off the branches that did that round's
 * work, and first run at its end. Rules of a shop's paying and account pages, by path: each names
 * where it applies (a page by `$eq`, a shop's item pages by `$startsWith`, a family of pages by
 * `$re`, or any path holding a word by `$contains`), then one test: a writing method, a country
 * outside two, one ASN, a tool's user agent, a client header that is there, a coupon in the query,
 * or an address in a /16; every sixth rule paused, every third an `$or` of two such ways in.
 */
function paymentRules() {
  const PAGES = ['/checkout/pay', '/login', '/account/orders', '/cart/add-to-cart', '/api/v1/items', '/search'];
  const FAMILIES = ['^/(checkout|cart)/', '^/account/', '^/api/v[0-9]+/', '^/shop/[0-9]{1,2}/item$'];
  const WORDS = ['pay', 'login', 'cart', 'item', 'order'];
  const COUNTRIES = ['US', 'DE', 'FR', 'KP', 'BR'];
  const ASNS = ['13335', '16509', '9009', '7922'];
  const TOOLS = ['python-', 'curl/', 'Scrapy/', 'Headless'];
  const pages = [
    (i) => ({ conditionType: 'path', operator: '$eq', value: PAGES[i % 6] }),
    (i) => ({ conditionType: 'path', operator: '$startsWith', value: `/shop/${(i * 13) % 1200}/` }),
    (i) => ({ conditionType: 'path', operator: '$re', value: [FAMILIES[i % 4]] }),
    (i) => ({ conditionType: 'path', operator: '$contains', value: WORDS[i % 5] }),
  ];
  const tests = [
    () => ({ conditionType: 'httpMethod', operator: '$eq', value: 'POST' }),
    (i) => ({ conditionType: 'country', operator: '$notIn', value: [COUNTRIES[i % 5], COUNTRIES[(i + 2) % 5]] }),
    (i) => ({ conditionType: 'socketIpASN', operator: '$eq', value: ASNS[i % 4] }),
    (i) => ({ conditionType: 'userAgent', operator: '$startsWith', value: TOOLS[i % 4] }),
    (i) => ({ conditionType: 'header', fieldOption: `x-client-${(i * 7) % 1000}`, operator: '$exists' }),
    () => ({ conditionType: 'queryParam', fieldOption: 'coupon', operator: '$eq', value: 'X' }),
    (i) => ({ conditionType: 'socketIps', operator: '$in', value: [`198.${i % 256}.0.0/16`] }),
  ];
  const way = (i) => ({ operator: '$and', children: [pages[i % 4](i), tests[(i >> 2) % 7](i)] });
  return Array.from({ length: RULES }, (_, i) => ({
    name: `payment ${i}`, description: '', status: i % 6 === 5 ? 'paused' : 'active', actions: [['hardBlock'], ['blockWithChallenge'], ['allow']][i % 3],
    conditions: i % 3 === 0 ? { operator: '$or', children: [way(i), way(i + 29)] } : { operator: '$and', children: [way(i)] },
  }));
}

/**
 * `feeds`: written at the start of the eleventh round, kept off the branches that did that round's
 * work, and first run at its end. Rules of a shop's feeds and machine endpoints: each names a way
 * in (a feed format in the query by `$in`, a path ending by `$endsWith`, a shop's pages by
 * `$startsWith`, a monitor's header by `$exists`, or a page number by `$re`), then one or two tests:
 * an address in a /8–/24 of the log's ranges, a user agent family (`$re`), networks outside two
 * ASNs, a device type, countries, no cookie, or a method other than GET; every eighth rule paused,
 * every fifth an `$or` of two such ways in.
 */
function feedRules() {
  const FORMATS = [['rss', 'atom'], ['json'], ['rss', 'json', 'csv']];
  const ENDINGS = ['.xml', '/feed', '.json', '/item', '/orders'];
  const FAMILIES = ['^(python|Scrapy|curl)', 'Chrome/1[0-9]{2}', '^bot-[0-9]*7$', '[Hh]eadless'];
  const ASNS = ['13335', '16509', '9009', '7922'];
  const COUNTRIES = [['US', 'DE'], ['FR'], ['KP', 'BR', 'US']];
  const ways = [
    (i) => ({ conditionType: 'queryParam', fieldOption: 'format', operator: '$in', value: [...FORMATS[i % 3]] }),
    (i) => ({ conditionType: 'path', operator: '$endsWith', value: ENDINGS[i % 5] }),
    (i) => ({ conditionType: 'path', operator: '$startsWith', value: `/shop/${(i * 7) % 1200}/` }),
    () => ({ conditionType: 'header', fieldOption: 'x-monitor', operator: '$exists' }),
    (i) => ({ conditionType: 'queryParam', fieldOption: 'page', operator: '$re', value: [`^${i % 10}[0-9]{2}$`] }),
  ];
  const tests = [
    (i) => ({ conditionType: 'socketIps', operator: '$in', value: [['10.0.0.0/8'], [`198.${i % 256}.0.0/16`], [`198.${i % 256}.${(i * 31) % 256}.0/24`]][i % 3] }),
    (i) => ({ conditionType: 'userAgent', operator: '$re', value: [FAMILIES[i % 4]] }),
    (i) => ({ conditionType: 'socketIpASN', operator: '$notIn', value: [ASNS[i % 4], ASNS[(i + 1) % 4]] }),
    (i) => ({ conditionType: 'deviceType', operator: '$eq', value: i % 2 === 0 ? 'desktop' : 'mobile' }),
    (i) => ({ conditionType: 'country', operator: '$in', value: [...COUNTRIES[i % 3]] }),
    () => ({ conditionType: 'header', fieldOption: 'cookie', operator: '$notExists' }),
    () => ({ conditionType: 'httpMethod', operator: '$ne', value: 'GET' }),
  ];
  const way = (i) => ({ operator: '$and', children: [ways[i % 5](i), tests[(i >> 1) % 7](i), ...(i % 3 === 0 ? [tests[(i >> 3) % 7](i + 1)] : [])] });
  return Array.from({ length: RULES }, (_, i) => ({
    name: `feed ${i}`, description: '', status: i % 8 === 7 ? 'paused' : 'active', actions: [['blockWithChallenge'], ['allow'], ['hardBlock']][i % 3],
    conditions: i % 5 === 0 ? { operator: '$or', children: [way(i), way(i + 11)] } : { operator: '$and', children: [way(i)] },
  }));
}

// The `mirrors` shape: written at the start of the twelfth round, kept off the branches that did
// that round's work (the Parquet reading among it), and first run at its end. Rules against
// mirroring and price-scraping: each an `$and` of a catalogue area (a `$contains` in the path, a
// `$notEndsWith`, or a page number of one to four digits by `$re` with a lookahead, which RE2 lacks), a client test (a
// header present or absent, a user agent by `$contains` or `$eq`), and one in two a third test (a
// domain, an ASN list, a country list or an address range); one in six a root `$or` of two.
function mirrorRules() {
  const AREAS = [
    (i) => ({ conditionType: 'path', operator: '$contains', value: i % 4 === 0 ? '/search' : `/shop/${(i * 7) % 1200}/` }),
    (i) => ({ conditionType: 'path', operator: '$notEndsWith', value: ['/item', '/pay', '/', '/orders', '/add-to-cart'][i % 5] }),
    (i) => ({ conditionType: 'queryParam', fieldOption: 'page', operator: '$re', value: [`^(?=${i % 10})[0-9]{${1 + (i % 4)}}$`] }),
  ];
  const CLIENTS = [
    (i) => ({ conditionType: 'header', fieldOption: `x-client-${(i * 17) % 1000}`, operator: '$exists' }),
    (i) => ({ conditionType: 'header', fieldOption: i % 2 === 0 ? 'accept-language' : `x-client-${(i * 31) % 1000}`, operator: '$notExists' }),
    (i) => ({ conditionType: 'userAgent', operator: '$contains', value: i % 2 === 0 ? `bot-${(i * 13) % 1200}` : ['python', 'Scrapy', 'Headless', 'curl'][i % 4] }),
    (i) => ({ conditionType: 'userAgent', operator: '$eq', value: `bot-${(i * 7) % 1200}` }),
  ];
  const THIRD = [
    (i) => ({ conditionType: 'domain', operator: '$ne', value: i % 2 === 0 ? 'www.shop.example.com' : 'm.shop.example.com' }),
    (i) => ({ conditionType: 'socketIpASN', operator: '$in', value: [['13335'], ['16509', '9009'], ['7922']][i % 3] }),
    (i) => ({ conditionType: 'country', operator: '$notIn', value: [['US'], ['DE', 'FR'], ['BR', 'KP', 'US']][i % 3] }),
    (i) => ({ conditionType: 'socketIps', operator: '$in', value: [`198.${(i * 13) % 256}.0.0/16`, `10.${i % 256}.0.0/16`] }),
  ];
  const group = (i) => ({ operator: '$and', children: [AREAS[i % 3](i), CLIENTS[(i >> 2) % 4](i), ...(i % 2 === 0 ? [THIRD[(i >> 1) % 4](i)] : [])] });
  return Array.from({ length: RULES }, (_, i) => ({
    name: `mirror ${i}`, description: '', status: i % 9 === 8 ? 'paused' : 'active', actions: [['hardBlock'], ['blockWithChallenge'], ['allow']][i % 3],
    conditions: i % 6 === 0 ? { operator: '$or', children: [group(i), group(i + 5)] } : { operator: '$and', children: [group(i)] },
  }));
}

/** The late shapes' rules, by name. */
export const LATE_REPLAY_SHAPES = { agents: agentRules, hosts: hostRules, payments: paymentRules, feeds: feedRules, mirrors: mirrorRules };
