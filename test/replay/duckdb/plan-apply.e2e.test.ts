// `plan --replay … --engine duckdb` and `apply --replay … --engine duckdb` through the real
// binary against the emulator: the same replay as the js engine (its decision by the numbers the
// plan shows), and apply stops on newly blocked requests unless --force, as with the js engine.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { CLI_BINARY, type BinaryResult } from '../../helpers/binary.js';
import { startEmulatorProject } from '../../helpers/emulator-project.js';
import type { Rule } from '../../../src/semantics/model.js';
import { LIVE, NDJSON } from '../fixtures.js';

/** The live rules with login blocked instead of challenged and checkout resumed: requests newly blocked. */
const DECLARED: Rule[] = LIVE.map(({ priority, ruleId: _id, ...rule }) => (priority === 2 ? { ...rule, actions: ['hardBlock'] } : priority === 3 ? { ...rule, status: 'active' } : rule));

type Project = Awaited<ReturnType<typeof startEmulatorProject>>;

async function binary(project: Project, ...args: string[]): Promise<BinaryResult> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI_BINARY, ...args], { cwd: project.dir, env: { PATH: process.env.PATH ?? '', ...project.env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

let project: Project;
beforeEach(async () => {
  project = await startEmulatorProject({ seedRules: LIVE.map(({ priority: _priority, ruleId: _id, ...rule }) => rule) });
  await project.writeRules(DECLARED);
  writeFileSync(path.join(project.dir, 'traffic.ndjson'), NDJSON);
});
afterEach(async () => {
  await project.close();
});

it('plan --replay gives the same replay with either engine', async () => {
  const plan = async (engine: string) => {
    const result = await binary(project, 'plan', '--replay', 'traffic.ndjson', '--engine', engine, '--format', 'json', '--no-behaviour-diff');
    return { code: result.code, stderr: result.stderr, plan: JSON.parse(result.stdout) as { replay: { engine: { name: string }; transitions: unknown[] } & Record<string, unknown> } };
  };
  const [js, duckdb] = [await plan('js'), await plan('duckdb')];
  expect(duckdb.plan.replay.engine.name).toBe('duckdb');
  expect(duckdb.plan.replay.transitions.length).toBeGreaterThan(0);
  expect({ ...duckdb.plan.replay, engine: undefined }).toEqual({ ...js.plan.replay, engine: undefined });
  expect(duckdb.code).toBe(js.code);
  // The warning on newly blocked requests, with its example, is the same.
  expect(js.stderr).toContain('would newly block or challenge 1 of the 6 replayed requests');
  expect(duckdb.stderr).toBe(js.stderr);
});

it('apply --replay --engine duckdb stops on newly blocked requests, and applies with --force', async () => {
  const before = project.emulator.rules('default').map((rule) => rule.actions);
  const stopped = await binary(project, 'apply', '--auto-approve', '--replay', 'traffic.ndjson', '--engine', 'duckdb');
  expect(stopped.code).not.toBe(0);
  expect(stopped.stderr + stopped.stdout).toMatch(/newly blocked|--force/);
  expect(project.emulator.rules('default').map((rule) => rule.actions)).toEqual(before);
  const applied = await binary(project, 'apply', '--auto-approve', '--replay', 'traffic.ndjson', '--engine', 'duckdb', '--force', '--verbose');
  expect(applied.code).toBe(0);
  expect(applied.stderr).toMatch(/replayed 7 log lines in \d+ ms \(duckdb engine\)/);
  expect(project.emulator.rules('default').map(({ name, status, actions }) => ({ name, status, actions }))).toEqual(DECLARED.map(({ name, status, actions }) => ({ name, status, actions })));
});
