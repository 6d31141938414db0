import { DuckDBInstance, DuckDBDataChunk, VARCHAR, INTEGER, MAP, mapValue } from '@duckdb/node-api';
const inst = await DuckDBInstance.create(':memory:', { threads: '2' });
const c = await inst.connect();
await c.run(`create temp table r(row INTEGER, path VARCHAR, ua VARCHAR, ip VARCHAR, headers MAP(VARCHAR, VARCHAR))`);
const N = 200000;
const rows = Array.from({length: N}, (_, i) => ({ path: '/p/' + (i % 100), ua: 'Mozilla ' + i, ip: '10.0.' + (i%256) + '.1', headers: { 'accept-language': 'en', cookie: '[redacted]' } }));
let t = performance.now();
const app = await c.createAppender('r');
const types = [INTEGER, VARCHAR, VARCHAR, VARCHAR, MAP(VARCHAR, VARCHAR)];
for (let s = 0; s < N; s += 2048) {
  const n = Math.min(2048, N - s);
  const chunk = DuckDBDataChunk.create(types, n);
  const cols = [[], [], [], [], []];
  for (let i = s; i < s + n; i++) { const r = rows[i]; cols[0].push(i); cols[1].push(r.path); cols[2].push(r.ua); cols[3].push(r.ip); cols[4].push(mapValue(Object.entries(r.headers).map(([key, value]) => ({ key, value })))); }
  chunk.setColumns(cols);
  app.appendDataChunk(chunk);
}
app.flushSync(); app.closeSync();
console.log('append ms', performance.now() - t, 'per row us', (performance.now() - t) * 1000 / N);
t = performance.now();
const r = await c.runAndReadAll(`select count(*), count(headers['cookie']) from r where starts_with(path, '/p/1')`);
console.log(r.getRowsJson(), performance.now() - t);
