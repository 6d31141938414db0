// A hostile HTTPS server's helpers: the real binary run asynchronously (the server lives in
// this process, so a synchronous spawn would stop it from answering), a project directory
// with one valid rule file, and the leak check that looks for every prefix of a secret.
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

const BIN = path.resolve('bin/botrules.js');

export interface BinResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runBin(args: string[], env: Record<string, string>, cwd: string, timeoutMs = 60_000): Promise<BinResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath, [BIN, ...args],
      { cwd, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env }, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A project with rules/a.yaml declaring one rule, in a fresh temporary directory. */
export async function ruleProject(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'botrules-hostile-'));
  await mkdir(path.join(dir, 'rules'));
  await writeFile(
    path.join(dir, 'rules', 'a.yaml'),
    'rules:\n  - name: Allow monitors\n    actions: [allow]\n    conditions:\n      operator: $or\n      children:\n' +
      '        - operator: $and\n          children:\n            - { conditionType: userAgent, operator: $contains, value: Pingdom }\n',
  );
  return dir;
}

/**
 * Every 4-character-or-longer prefix of these secrets found in the text (case-insensitive).
 * Checking the 4-character prefix is enough: every longer prefix contains it.
 */
/** The secrets of which some run of 8 characters (where redaction starts) appears in `text`, ignoring case. */
export function leakedParts(text: string, secrets: readonly string[]): string[] {
  const haystack = text.toLowerCase();
  return secrets.filter((secret) => Array.from({ length: Math.max(1, secret.length - 7) }, (_, i) => secret.slice(i, i + 8).toLowerCase()).some((part) => haystack.includes(part)));
}

export function leakedPrefixes(text: string, secrets: readonly string[]): string[] {
  const haystack = text.toLowerCase();
  return secrets.filter((secret) => secret.length >= 4 && haystack.includes(secret.slice(0, 4).toLowerCase()));
}
