// Runs a Node child asynchronously (an emulator in the benchmark's own process answers it
// meanwhile) and times it from spawn to exit; the benchmarks that drive the CLI share it.
import { spawn } from 'node:child_process';

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
