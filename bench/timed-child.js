// Runs a Node child asynchronously (an emulator in the benchmark's own process answers it
// meanwhile) and times it from spawn to exit; the benchmarks that drive the CLI share it.
import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';

/** Node with `args`; rejects unless it exits with `expect`. Resolves { ms, stdout, stderr }. */
export function timedNode(args, { cwd, env, expect = 0 }) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env, NO_COLOR: '1' } });
    const out = [];
    const err = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const stderr = Buffer.concat(err).toString('utf8');
      if (code !== expect) reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`));
      resolve({ ms, stdout: Buffer.concat(out).toString('utf8'), stderr });
    });
  });
}

// Written by the child at exit into the file BENCH_RSS_FILE names. Not on stderr: Node writes to
// a pipe without blocking, so a line written in an 'exit' handler is lost whenever the pipe is
// full at that moment — as it is after `validate` printed megabytes of findings, which left
// the benchmark without a figure (NaN).
const REPORT_RSS = `data:text/javascript,${encodeURIComponent(
  "import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS)));\n",
)}`;

/**
 * timedNode with the child's peak RSS in kB (`maxRssKb`: its process.resourceUsage().maxRSS,
 * the kernel's high-water mark of its resident set); `rssFile` is where the child writes it.
 */
export async function timedNodeWithRss(args, { rssFile, env, ...options }) {
  const result = await timedNode(['--import', REPORT_RSS, ...args], { ...options, env: { ...env, BENCH_RSS_FILE: rssFile } });
  const maxRssKb = Number(await readFile(rssFile, 'utf8'));
  await rm(rssFile, { force: true });
  if (!Number.isFinite(maxRssKb)) throw new Error(`${args.join(' ')}: no peak RSS in ${rssFile}`);
  return { ...result, maxRssKb };
}
