// An install where @duckdb/node-api cannot be loaded (a platform without its native binary, the
// bundled action): simulated through the real binary by a module hook that fails every import
// of the package. `--engine js` and `--emit-sql` work as before (they never load it) and
// `--engine duckdb` says how to get it, with no stack trace and no report.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { CLI_BINARY, type BinaryResult } from '../../helpers/binary.js';
import { tempDir } from '../../helpers/temp.js';
import { NDJSON, replayProject } from '../fixtures.js';

const HOOK = `export async function resolve(specifier, context, next) {
  if (specifier === '@duckdb/node-api' || specifier.startsWith('@duckdb/')) throw new Error('simulated: the native binary of @duckdb/node-api cannot be loaded here');
  return next(specifier, context);
}`;

let project: string;
let register: string;
beforeAll(() => {
  project = replayProject();
  writeFileSync(path.join(project, 'a.ndjson'), NDJSON);
  const dir = tempDir('botrules-no-duckdb-');
  writeFileSync(path.join(dir, 'hook.mjs'), HOOK);
  register = path.join(dir, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(path.join(dir, 'hook.mjs')).href)});\n`);
});

/** The real binary, with the failing import hook when `withoutDuckDb`. */
async function run(withoutDuckDb: boolean, ...args: string[]): Promise<BinaryResult> {
  const node = withoutDuckDb ? ['--import', pathToFileURL(register).href] : [];
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [...node, CLI_BINARY, ...args], { cwd: project, env: { PATH: process.env.PATH ?? '' } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

const replay = (withoutDuckDb: boolean, engine: string) => run(withoutDuckDb, 'replay', '--live', 'live.json', '--format', 'json', '--engine', engine, 'a.ndjson');

it('replays with --engine js as with the package', async () => {
  const [without, withIt] = [await replay(true, 'js'), await replay(false, 'js')];
  expect(without.stderr).toBe('');
  const strip = (stdout: string) => ({ ...(JSON.parse(stdout) as object), engine: undefined });
  expect(strip(without.stdout)).toEqual(strip(withIt.stdout));
  expect(without.code).toBe(withIt.code);
});

it('prints --emit-sql without loading the package', async () => {
  const emitted = await run(true, 'replay', '--live', 'live.json', '--emit-sql', '--dialect', 'duckdb');
  expect(emitted.stderr).toBe('');
  expect(emitted.code).toBe(0);
  expect(emitted.stdout).toMatch(/^-- botrules replay --emit-sql/);
});

it('says how to get the package for --engine duckdb: no report, no stack trace', async () => {
  const failed = await replay(true, 'duckdb');
  expect(failed.code).toBe(1);
  expect(failed.stdout).toBe('');
  expect(failed.stderr).toContain('the duckdb engine needs the package @duckdb/node-api@1.5.6-r.1, which cannot be loaded here (simulated: the native binary of @duckdb/node-api cannot be loaded here)');
  expect(failed.stderr).toContain('npm install @duckdb/node-api@1.5.6-r.1');
  expect(failed.stderr).toContain('--engine js');
  expect(failed.stderr).not.toMatch(/\n\s+at /);
  // The hook is what fails it: with the package, the same command replays.
  expect((await replay(false, 'duckdb')).code).toBe(2);
});
