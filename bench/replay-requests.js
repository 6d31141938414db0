// The requests of the replay benchmark's logs (bench/replay.bench.js, bench/replay-tried.js):
// a realistic mixture of browsers, bots, monitors and partners, the i-th of a log drawn from
// its seeded random numbers; the log and the project the replay benchmarks write.
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { seededRandom } from '../dist/emulator/random.js';
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

/** A log of `size` requests drawn from `seededRandom(size)`, written a megabyte at a time. */
export async function writeRequestLog(file, size) {
  const out = createWriteStream(file);
  const next = seededRandom(size);
  let chunk = '';
  for (let i = 0; i < size; i += 1) {
    chunk += `${requestLine(next, i)}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

/**
 * The replay benchmark's project in `dir`: the shape's rules live (priority order) and declared
 * with every 20th rule's actions changed, and `log` linked as `name` (log.ndjson). `takeSnapshot` comes
 * from the build under test.
 */
export function writeReplayProject(dir, rules, log, takeSnapshot, name = 'log.ndjson') {
  const live = rules.map((rule, priority) => ({ ...rule, ruleId: `00000000-0000-4000-8000-${String(priority).padStart(12, '0')}`, priority }));
  const declared = live.map(({ priority: _p, ...rule }, i) => (i % 20 === 0 ? { ...rule, actions: ['hardBlock'] } : rule));
  mkdirSync(path.join(dir, 'rules'));
  writeFileSync(path.join(dir, 'rules', 'rules.yaml'), stringify({ rules: declared }));
  writeFileSync(path.join(dir, 'live.json'), JSON.stringify(takeSnapshot([{ app: 'default', rules: live }], new Date(0))));
  symlinkSync(log, path.join(dir, name));
}

/** The same requests as a Parquet file (request fields as columns, the maps as maps of strings), written by DuckDB. */
export async function writeRequestParquet(log, file) {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:', { memory_limit: '768MB', threads: '2' });
  const connection = await instance.connect();
  const text = ['path', 'method', 'userAgent', 'ip', 'asn', 'country', 'domain', 'deviceType'].map((field) => `${field}: 'VARCHAR'`).join(', ');
  const maps = ['headers', 'query', 'custom'].map((field) => `${field}: 'MAP(VARCHAR, VARCHAR)'`).join(', ');
  await connection.run(`COPY (SELECT * FROM read_json('${log}', format = 'newline_delimited', columns = {${text}, ${maps}})) TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 122880)`);
  connection.closeSync();
  instance.closeSync();
}

/**
 * The same requests as NDJSON and as Parquet for the Parquet benchmarks: REPLAY_AB_NDJSON's log, or
 * `size` requests written into `work`, and that log written as Parquet into `work`.
 */
export async function requestLogsIn(work, size) {
  const ndjson = process.env.REPLAY_AB_NDJSON ?? path.join(work, 'log.ndjson');
  if (!existsSync(ndjson)) await writeRequestLog(ndjson, size);
  const parquet = path.join(work, 'log.parquet');
  await writeRequestParquet(ndjson, parquet);
  return { ndjson, parquet };
}
