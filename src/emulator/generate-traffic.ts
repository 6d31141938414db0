// A synthetic request log for the emulator's generated rules and the example site (docs/replay.md,
// "Synthetic traffic"): NDJSON lines in the request fields of docs/evaluation.md, drawn from a
// realistic mixture of visitors, so a demo, the README and tests can replay traffic without a
// real log. Each kind of visitor carries what the generated rules' themes look for (scrapers on
// /search, monitors with x-monitor, partners with x-partner-key on the API domain, credential
// stuffing on /account, coupon hunters), most of it ordinary browsing. Deterministic per seed.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { pick, pickWeighted, randomInt, seededRandom, type Random } from './random.js';
import { timeOf, trafficWriter, type TrafficFormat, type TrafficRequest } from './traffic-formats.js';

const BROWSERS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
];
const PAGES = ['/', '/search', '/product/1234', '/product/98', '/cart', '/checkout/pay', '/account/orders', '/login', '/api/v1/items', '/help'];
const COUNTRIES = ['US', 'US', 'US', 'DE', 'GB', 'FR', 'CA', 'BR', 'IN', 'JP'];
const HOME_ASNS = ['7922', '3320', '2856', '701'];
const CLOUD_ASNS = ['14061', '16509', '24940'];

/** Who sends a request, and how often (weights add up to 100). */
const VISITORS: readonly { weight: number; request: (random: Random, i: number) => TrafficRequest }[] = [
  { weight: 70, request: browser },
  { weight: 8, request: scraper },
  { weight: 3, request: headless },
  { weight: 3, request: credentialStuffer },
  { weight: 3, request: couponHunter },
  { weight: 5, request: monitor },
  { weight: 5, request: partner },
  { weight: 3, request: office },
];

export function* trafficRequests(count: number, seed = 1): Generator<TrafficRequest> {
  const random = seededRandom(seed);
  for (let i = 0; i < count; i++) {
    yield pickWeighted(random, VISITORS, 100).request(random, i);
  }
}

/** Writes `count` requests to `file` in a log format (NDJSON by default), streaming (memory flat in `count`). */
export async function writeTraffic(file: string, count: number, seed = 1, format: TrafficFormat = 'ndjson'): Promise<void> {
  if (format === 'parquet') {
    // Loaded only here: the Parquet writer is no part of any other command.
    const { writeParquetTraffic } = await import('./traffic-parquet.js');
    return writeParquetTraffic(file, trafficRequests(count, seed), timeOf);
  }
  const out = createWriteStream(file, { flags: 'wx' });
  const writer = trafficWriter(format);
  let chunk = writer.start;
  let i = 0;
  for (const request of trafficRequests(count, seed)) {
    chunk += writer.request(request, i++);
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk + writer.end);
  await once(out, 'finish');
}

function base(random: Random, userAgent: string): TrafficRequest {
  const mobile = userAgent.includes('iPhone');
  return {
    path: pick(random, PAGES), method: random() < 0.85 ? 'GET' : 'POST', userAgent,
    ip: `198.51.${randomInt(random, 0, 99)}.${randomInt(random, 1, 254)}`, asn: pick(random, HOME_ASNS),
    country: pick(random, COUNTRIES), domain: 'www.shop.example.com', deviceType: mobile ? 'mobile' : 'desktop',
    headers: { 'accept-language': 'en-US,en;q=0.9', referer: 'https://www.shop.example.com/' },
  };
}

function browser(random: Random): TrafficRequest {
  const request = base(random, pick(random, BROWSERS));
  if (request.path === '/search') request.query = { q: pick(random, ['shoes', 'red dress', 'gift card']), page: String(randomInt(random, 1, 5)) };
  return request;
}

/** Half search the catalogue from cloud hosts; half walk product pages through residential proxies. */
function scraper(random: Random, i: number): TrafficRequest {
  const agent = pick(random, ['Scrapy/2.11 (+https://scrapy.org)', 'python-requests/2.31.0', 'curl/8.4.0']);
  const { headers: _headers, ...request } = base(random, agent);
  if (random() < 0.5) return { ...request, path: '/search', asn: pick(random, CLOUD_ASNS), headers: {}, query: { q: 'sku', page: String(100 + (i % 900)) } };
  return { ...request, path: `/product/${1000 + (i % 9000)}`, method: 'GET', headers: {} };
}

function headless(random: Random): TrafficRequest {
  return { ...base(random, 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0 Safari/537.36'), asn: pick(random, CLOUD_ASNS) };
}

function credentialStuffer(random: Random): TrafficRequest {
  return { ...base(random, pick(random, BROWSERS)), path: pick(random, ['/account/login', '/login']), method: 'POST', asn: pick(random, CLOUD_ASNS), country: pick(random, ['VN', 'RU', 'BR', 'US']) };
}

function couponHunter(random: Random): TrafficRequest {
  return { ...base(random, pick(random, BROWSERS)), path: '/checkout/pay', query: { coupon: `SAVE${randomInt(random, 10, 90)}` }, deviceType: 'desktop', custom: { session_age: 'new' } };
}

function monitor(random: Random): TrafficRequest {
  const request = base(random, pick(random, ['Pingdom.com_bot_version_1.4_(http://www.pingdom.com/)', 'Mozilla/5.0 (compatible; UptimeRobot/2.0)']));
  return { ...request, path: '/', method: 'GET', headers: { 'x-monitor': 'synthetic' }, asn: '16509' };
}

function partner(random: Random): TrafficRequest {
  const request = base(random, 'partner-feed/3.2 (+https://partner.example.net)');
  return { ...request, path: '/api/v1/items', domain: 'api.shop.example.com', headers: { 'x-partner-key': `pk_${randomInt(random, 1000, 9999)}` }, asn: pick(random, CLOUD_ASNS) };
}

function office(random: Random): TrafficRequest {
  return { ...base(random, pick(random, BROWSERS)), ip: `203.0.113.${randomInt(random, 1, 254)}`, asn: '64500', country: 'DE' };
}
