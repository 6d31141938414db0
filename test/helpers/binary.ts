// The CLI file the real-binary tests run: bin/botrules.js (the build), or the file named by
// BOTRULES_TEST_BINARY. CI sets it to the esbuild bundle (dist-action/botrules.mjs), so the
// bundled CLI the action runs passes the same tests as the build.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

export const CLI_BINARY = path.resolve(process.env.BOTRULES_TEST_BINARY ?? 'bin/botrules.js');

export interface BinaryResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The real binary, as a user runs it, in `cwd` with only PATH set; any exit code resolves. */
export async function runBinary(cwd: string, ...args: string[]): Promise<BinaryResult> {
  return runBinaryWith({ cwd, env: {} }, ...args);
}

/** The same, with `env` beside PATH (an emulator's URLs, tokens and certificate). */
export async function runBinaryWith(options: { cwd: string; env: Record<string, string> }, ...args: string[]): Promise<BinaryResult> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI_BINARY, ...args], { cwd: options.cwd, env: { ...options.env, PATH: process.env.PATH ?? '' } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}
