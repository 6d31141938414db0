// The bundled CLI the action runs (scripts/bundle.js, esbuild): built into a directory with no
// node_modules anywhere above it, it must run every kind of command on its own: a command that
// needs the YAML Document API (a broken rule file), and live, plan --live and plan over HTTPS
// against the emulator, with the same results as the build.
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { lettered, rule, writeRules } from '../apply/fixtures.js';

const run = promisify(execFile);
let dir: string;
let bundle: string;
let emu: TestEmulator;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'botrules-bundle-'));
  bundle = path.join(dir, 'action', 'botrules.mjs');
  await run(process.execPath, ['scripts/bundle.js', 'action', bundle]);
  emu = await startTestEmulator({ seedRules: lettered(3) });
  const [a, b, c] = lettered(3) as [ReturnType<typeof rule>, ReturnType<typeof rule>, ReturnType<typeof rule>];
  await writeRules(path.join(dir, 'project', 'rules'), [c, a, { ...b, description: 'bundled' }]);
});

afterAll(async () => {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});

async function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bundle, ...args], { cwd: path.join(dir, 'project'), env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('the bundled CLI', () => {
  it('is one file that imports nothing but Node.js itself', async () => {
    const text = await readFile(bundle, 'utf8');
    const imports = [...text.matchAll(/^import .* from ["']([^"']+)["'];?$/gm)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((name) => !name?.startsWith('node:') && !builtinModules.includes(name ?? ''))).toEqual([]);
  });

  it('reports a broken rule file at its line and column (the YAML Document API is inside)', async () => {
    await mkdir(path.join(dir, 'project', 'broken'), { recursive: true });
    await writeFile(path.join(dir, 'project', 'broken', 'a.yaml'), 'rules:\n  - name: x\n    statuss: &a 1\n');
    const result = await cli(['validate', '--dir', 'broken']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('broken/a.yaml:3:5: unknown key "statuss"');
  });

  it('plans over HTTPS, writes a live snapshot, and plans against it with no token, alike', async () => {
    const live = await cli(['plan', '--format', 'json'], emu.env);
    expect(live.code).toBe(0);
    expect((await cli(['live', '--out', 'live.json'], emu.env)).code).toBe(0);
    const offline = await cli(['plan', '--format', 'json', '--live', 'live.json']);
    expect(offline.code).toBe(0);
    expect(JSON.parse(offline.stdout).apps).toEqual(JSON.parse(live.stdout).apps);
    expect(JSON.parse(live.stdout).summary.patches).toBe(2);
  });
});
