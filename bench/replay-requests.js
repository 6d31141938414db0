// The requests of the replay benchmark's logs (bench/replay.bench.js, bench/replay-tried.js):
// a realistic mixture of browsers, bots, monitors and partners, the i-th of a log drawn from
// its seeded random numbers.
const PATHS = ['/', '/search', '/login', '/account/orders', '/checkout/pay', '/api/v1/items', '/product/123', '/cart/add-to-cart', '/home'];
const AGENTS = ['Mozilla/5.0 (Windows NT 10.0) Chrome/126.0', 'Mozilla/5.0 (iPhone) Safari/604.1', 'python-requests/2.31', 'Scrapy/2.11', 'curl/8.4.0', 'Pingdom.com_bot', 'HeadlessChrome/120', 'GoogleBot'];

/** One NDJSON request: a realistic mixture of browsers, bots, monitors and partners. */
export function requestLine(next, i) {
  const request = {
    path: next() < 0.3 ? `/shop/${i % 1200}/item` : PATHS[Math.floor(next() * PATHS.length)],
    method: next() < 0.8 ? 'GET' : 'POST',
    userAgent: next() < 0.05 ? `bot-${i % 1200}` : AGENTS[Math.floor(next() * AGENTS.length)],
    ip: `${next() < 0.1 ? 10 : 198}.${i % 256}.${Math.floor(next() * 256)}.${Math.floor(next() * 256)}`,
    asn: ['13335', '16509', '9009', '7922'][i % 4],
    country: ['US', 'DE', 'FR', 'KP', 'BR'][i % 5],
    domain: 'www.shop.example.com',
    deviceType: next() < 0.5 ? 'desktop' : 'mobile',
    headers: { 'accept-language': 'en', ...(next() < 0.02 ? { 'x-monitor': '1' } : {}), ...(next() < 0.01 ? { [`x-client-${i % 1000}`]: 'y' } : {}), cookie: 'sid=abc' },
    ...(next() < 0.1 ? { query: { page: String(i % 2000), coupon: 'X' } } : {}),
  };
  return JSON.stringify(request);
}
