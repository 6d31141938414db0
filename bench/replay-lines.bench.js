// Reading a hostile log: one line of millions of characters, gzip-compressed (a 64 KB file that
// once took replay 624 s). For each size, the floor is gunzipping the same bytes and scanning
// them for newlines without keeping anything; the reader (dist/requests/traffic/lines.js) finds
// the lines, drops the overlong one as it grows, and must stay within a small factor of the
// floor at every size (linear, not quadratic) with flat memory (peak RSS the same at each size).
// Each size runs in its own child process so RSS is its own. `npm run bench -- replay-lines`.
import { spawnSync } from 'node:child_process';
import { Readable } from 'node:stream';
import { createGunzip, gzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const SIZES = (process.env.LINE_BENCH_SIZES ?? '4000000,16000000,64000000').split(',').map(Number);
const here = fileURLToPath(import.meta.url);

async function child(size, mode) {
  const gz = gzipSync(Buffer.from(`{"path":"/${'a'.repeat(size)}"}\n{"path":"/after"}\n`));
  const stream = () => Readable.from([gz]).pipe(createGunzip());
  const started = performance.now();
  let lines = 0;
  if (mode === 'floor') {
    for await (const chunk of stream()) for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) lines += 1;
  } else {
    const { streamLines } = await import('../dist/requests/traffic/lines.js');
    for await (const batch of streamLines(stream())) lines += batch.length;
  }
  const ms = performance.now() - started;
  process.stdout.write(JSON.stringify({ ms, lines, gzip: gz.length, rss: process.memoryUsage().rss }));
}

if (process.argv[2] === 'child') {
  await child(Number(process.argv[3]), process.argv[4]);
} else {
  const run = (size, mode) => JSON.parse(spawnSync(process.execPath, [here, 'child', String(size), mode], { encoding: 'utf8' }).stdout);
  console.log('| characters in one line | gzip bytes | floor ms | reader ms | reader / floor | lines | peak RSS MB |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|');
  for (const size of SIZES) {
    const floor = run(size, 'floor');
    const reader = run(size, 'reader');
    console.log(`| ${size.toLocaleString('en-US')} | ${reader.gzip.toLocaleString('en-US')} | ${floor.ms.toFixed(0)} | ${reader.ms.toFixed(0)} | ${(reader.ms / floor.ms).toFixed(1)} | ${reader.lines} | ${(reader.rss / 1e6).toFixed(0)} |`);
  }
}
