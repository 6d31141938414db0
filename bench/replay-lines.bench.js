// Reading a hostile log: one line of millions of characters, gzip-compressed (a 64 KB file that
// once took replay 624 s). For each size, the floor is gunzipping the same bytes and scanning
// them for newlines without keeping anything; the reader (dist/replay/lines.js) finds
// the lines, drops the overlong one as it grows, and must stay within a small factor of the
// floor at every size (linear, not quadratic) with flat memory (peak RSS the same at each size).
// Each size runs in its own child process so RSS is its own (the kernel's high-water mark,
// process.resourceUsage().maxRSS; both children build the same input, a string and a buffer of
// the line's size, so the reader's own memory is its peak over the floor's). Targets, checked
// (exit 1 on a miss): the reader within FLOOR_TARGET× the floor's time measured in the same run
// at every size, both lines found, and the reader's peak RSS at most EXTRA_RSS_TARGET_MB over the
// floor's at every size (keeping a 64,000,000-character line would take 64 MB at least).
// `npm run bench -- replay-lines`.
import { spawnSync } from 'node:child_process';
import { Readable } from 'node:stream';
import { createGunzip, gzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const SIZES = (process.env.LINE_BENCH_SIZES ?? '4000000,16000000,64000000').split(',').map(Number);
const here = fileURLToPath(import.meta.url);
const FLOOR_TARGET = 4;
const EXTRA_RSS_TARGET_MB = 32;

async function child(size, mode) {
  const gz = gzipSync(Buffer.from(`{"path":"/${'a'.repeat(size)}"}\n{"path":"/after"}\n`));
  const stream = () => Readable.from([gz]).pipe(createGunzip());
  const started = performance.now();
  let lines = 0;
  if (mode === 'floor') {
    for await (const chunk of stream()) for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) lines += 1;
  } else {
    const { streamLines } = await import('../dist/replay/lines.js');
    for await (const batch of streamLines(stream())) lines += batch.length;
  }
  const ms = performance.now() - started;
  process.stdout.write(JSON.stringify({ ms, lines, gzip: gz.length, rss: process.resourceUsage().maxRSS * 1024 }));
}

if (process.argv[2] === 'child') {
  await child(Number(process.argv[3]), process.argv[4]);
} else {
  const run = (size, mode) => JSON.parse(spawnSync(process.execPath, [here, 'child', String(size), mode], { encoding: 'utf8' }).stdout);
  console.log(`| characters in one line | gzip bytes | floor ms | reader ms | reader / floor (target ${FLOOR_TARGET}) | lines | floor peak RSS MB | reader peak RSS MB | reader over floor MB (target ${EXTRA_RSS_TARGET_MB}) |`);
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const missed = [];
  for (const size of SIZES) {
    const floor = run(size, 'floor');
    const reader = run(size, 'reader');
    const ratio = reader.ms / floor.ms;
    const extraMb = (reader.rss - floor.rss) / 1e6;
    console.log(`| ${size.toLocaleString('en-US')} | ${reader.gzip.toLocaleString('en-US')} | ${floor.ms.toFixed(0)} | ${reader.ms.toFixed(0)} | ${ratio.toFixed(1)} | ${reader.lines} | ${(floor.rss / 1e6).toFixed(0)} | ${(reader.rss / 1e6).toFixed(0)} | ${extraMb.toFixed(0)} |`);
    if (extraMb > EXTRA_RSS_TARGET_MB) missed.push(`${size} characters: the reader's peak RSS was ${extraMb.toFixed(0)} MB over the floor's (target ${EXTRA_RSS_TARGET_MB} MB)`);
    if (ratio > FLOOR_TARGET) missed.push(`${size} characters: the reader took ${ratio.toFixed(1)}× the floor (target ${FLOOR_TARGET}×)`);
    if (reader.lines !== 2) missed.push(`${size} characters: the reader found ${reader.lines} lines, not 2`);
  }
  console.log(missed.length === 0 ? '\nEvery target met.' : `\nTargets missed:\n${missed.map((line) => `- ${line}`).join('\n')}`);
  process.exitCode = missed.length === 0 ? 0 : 1;
}
