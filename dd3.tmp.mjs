import { DuckDBInstance, DuckDBDataChunk, VARCHAR, INTEGER } from '@duckdb/node-api';
const inst = await DuckDBInstance.create(':memory:', { threads: '2' });
const c = await inst.connect();
await c.run(`create temp table r(row INTEGER, path VARCHAR, ua VARCHAR, ip VARCHAR, headers VARCHAR)`);
const N = 200000;
const rows = Array.from({length: N}, (_, i) => ({ path: '/p/' + (i % 100), ua: 'Mozilla ' + i, ip: '10.0.' + (i%256) + '.1', headers: { 'accept-language': 'en', cookie: '[redacted]' } }));
let t = performance.now();
const app = await c.createAppender('r');
const types = [INTEGER, VARCHAR, VARCHAR, VARCHAR, VARCHAR];
const chunk = DuckDBDataChunk.create(types, 2048);
for (let s = 0; s < N; s += 2048) {
  const n = Math.min(2048, N - s);
  chunk.rowCount = n;
  const v = [0,1,2,3,4].map((k) => chunk.getColumnVector(k));
  for (let i = 0; i < n; i++) { const r = rows[s+i]; v[0].setItem(i, s+i); v[1].setItem(i, r.path); v[2].setItem(i, r.ua); v[3].setItem(i, r.ip); v[4].setItem(i, JSON.stringify(r.headers)); }
  for (const x of v) x.flush();
  app.appendDataChunk(chunk);
}
app.flushSync(); app.closeSync();
console.log('append ms', performance.now() - t, 'per row us', (performance.now() - t) * 1000 / N);
t = performance.now();
const r = await c.runAndReadAll(`select count(*), count(m['cookie']) from (select path, CAST(headers AS JSON)::MAP(VARCHAR,VARCHAR) as m from r) where starts_with(path, '/p/1')`);
console.log(r.getRowsJson(), performance.now() - t);
t = performance.now();
const r2 = await c.runAndReadAll(`select count(*), count(json_extract_string(headers, '$."cookie"')) from r where starts_with(path, '/p/1')`);
console.log(r2.getRowsJson(), performance.now() - t);
