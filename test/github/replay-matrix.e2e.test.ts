// The replay matrix workflow (examples/github-workflows/npx/replay-matrix.yml) run as the runner
// would run it, job by job, against the emulator: `config` chooses the app and the shards, the
// snapshot job takes the live rules with the environment's token, each matrix job replays its
// contiguous run of the log files in a workspace of its own, and the merge job merges the
// uploaded reports. Artifacts move between the workspaces as copies; `npm ci` is left out and
// `npx --no-install botrules` is the built CLI (npx-workflows.e2e.test.ts installs the tarball
// for real). The merged report is the report of one replay of the whole log, and its exit code.
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { trafficRequests } from '../../src/emulator/generate-traffic.js';
import type { Rule } from '../../src/semantics/model.js';
import { CLI_BINARY } from '../helpers/binary.js';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { tempDir } from '../helpers/temp.js';
import { NDJSON } from '../replay/fixtures.js';
import { readYamlFile, stepsOf, type YamlMap } from './workflow-files.js';
import { runJob, type StepRecord } from './workflow-run.js';

const WORKFLOW = readYamlFile('examples/github-workflows/npx/replay-matrix.yml');
const WORKFLOW_ENV = Object.fromEntries(Object.entries(WORKFLOW.data.env as YamlMap).map(([name, value]) => [name, String(value)]));

const leaf = (conditionType: string, operator: string, value?: string, fieldOption?: string) =>
  ({ conditionType, operator, ...(value === undefined ? {} : { value }), ...(fieldOption === undefined ? {} : { fieldOption }) });
const rule = (name: string, actions: Rule['actions'], status: Rule['status'], one: ReturnType<typeof leaf>): Rule =>
  ({ name, description: '', status, actions, conditions: { operator: '$and', children: [{ operator: '$and', children: [one] }] } } as Rule);
/** The live rules; the rule files activate the paused checkout rule once imported. */
const LIVE = [
  rule('Allow monitors', ['allow'], 'active', leaf('header', '$exists', undefined, 'x-monitor')),
  rule('Block scrapers', ['hardBlock'], 'active', leaf('userAgent', '$contains', 'Scrapy')),
  rule('Challenge checkout', ['blockWithChallenge'], 'paused', leaf('path', '$startsWith', '/checkout')),
];

/** The steps of one job, without `npm ci` (the stand-in npx needs no install). */
function job(name: string): YamlMap[] {
  return stepsOf(WORKFLOW).filter((ref) => ref.where.startsWith(`jobs.${name}.`)).map((ref) => ref.step)
    .filter((step) => !(typeof step.run === 'string' && step.run.startsWith('npm ci')));
}

describe('the replay matrix workflow', () => {
  let emu: TestEmulator;
  let root: string;
  let repository: string;
  let bin: string;
  /** Uploaded artifacts by name: the files each holds. */
  const artifacts = new Map<string, string[]>();

  beforeAll(async () => {
    emu = await startTestEmulator({ seedRules: LIVE });
    root = tempDir('botrules-replay-matrix-');
    repository = path.join(root, 'repository');
    mkdirSync(path.join(repository, 'logs'), { recursive: true });
    expect((await runCli(['import'], { cwd: repository, env: emu.env })).code).toBe(0);
    for (const file of readdirSync(path.join(repository, 'rules'))) {
      const rules = path.join(repository, 'rules', file);
      writeFileSync(rules, readFileSync(rules, 'utf8').replace('status: paused', 'status: active'));
    }
    // Seven log files in time order; the fixture's lines (a scraper, a checkout, a broken line…) in the middle.
    const requests = [...trafficRequests(1200, 11)].map((request) => JSON.stringify(request));
    for (let hour = 0; hour < 7; hour++) {
      const lines = hour === 3 ? NDJSON.split('\n').filter((line) => line !== '') : requests.slice(hour * 200, hour * 200 + 200);
      writeFileSync(path.join(repository, 'logs', `2026-11-26T${String(hour).padStart(2, '0')}.ndjson`), `${lines.join('\n')}\n`);
    }
    bin = path.join(root, 'bin');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'npx'), [
      '#!/bin/sh',
      '[ "$1" = --no-install ] && [ "$2" = botrules ] || { echo "stand-in npx: only npx --no-install botrules" >&2; exit 127; }',
      'shift 2',
      `exec "${process.execPath}" "${path.resolve(CLI_BINARY)}" "$@"`,
      '',
    ].join('\n'));
    chmodSync(path.join(bin, 'npx'), 0o755);
  });
  afterAll(async () => {
    await emu.close();
  });

  /** One job in a workspace of its own (a fresh checkout), artifacts uploaded and downloaded as copies. */
  async function run(name: string, context: Record<string, string>, env: Record<string, string> = {}): Promise<{ records: StepRecord[]; workspace: string }> {
    const workspace = path.join(root, `${name}-${context['matrix.shard'] ?? 'job'}`);
    cpSync(repository, workspace, { recursive: true });
    const records = await runJob(job(name), {
      cwd: workspace,
      context: { 'github.run_number': '7', ...context },
      env: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: root, ...WORKFLOW_ENV, ...env },
      otherAction: (step, given) => {
        const uses = String(step.uses);
        if (/^actions\/(checkout|setup-node)@/.test(uses)) return true;
        if (uses.startsWith('actions/upload-artifact@')) {
          const file = path.join(workspace, given.path ?? '');
          artifacts.set(given.name ?? '', readdirSync(path.dirname(file)).includes(path.basename(file)) ? [file] : []);
          return true;
        }
        if (uses.startsWith('actions/download-artifact@')) {
          const pattern = new RegExp(`^${(given.name ?? given.pattern ?? '').replace('*', '.*')}$`);
          const into = path.join(workspace, given.path ?? '.');
          mkdirSync(into, { recursive: true });
          for (const [artifact, files] of artifacts) if (pattern.test(artifact)) for (const file of files) cpSync(file, path.join(into, path.basename(file)));
          return true;
        }
        return false;
      },
    });
    return { records, workspace };
  }

  const failed = (records: StepRecord[]) => records.filter((record) => record.result !== undefined && record.result.status !== 0).map((record) => `${record.id}: ${record.result?.stdout ?? ''}${record.result?.stderr ?? ''}`);

  it('replays the log as shards and merges them into the report of the whole log', async () => {
    const config = await run('config', { 'inputs.app': '', 'inputs.shards': '3' });
    expect(failed(config.records)).toEqual([]);
    const planned = config.records.find((record) => record.id === 'plan')?.outputs ?? {};
    expect(planned).toEqual({ app: 'default', environment: 'production', tokenEnv: 'BOTRULES_TOKEN', shards: '[0,1,2]', count: '3' });
    const needs = Object.fromEntries(Object.entries(planned).map(([name, value]) => [`needs.config.outputs.${name}`, value]));

    const snapshot = await run('snapshot', { ...needs, 'secrets.BOTRULES_TOKEN': emu.env.BOTRULES_TOKEN ?? '' }, emu.env);
    expect(failed(snapshot.records)).toEqual([]);
    for (const shard of JSON.parse(planned.shards ?? '[]') as number[]) {
      const replay = await run('replay', { ...needs, 'matrix.shard': String(shard) });
      expect(failed(replay.records)).toEqual([]);
    }
    expect([...artifacts.keys()].filter((name) => name.startsWith('botrules-replay-shard-'))).toHaveLength(3);
    const merge = await run('merge', needs);
    const mergeStep = merge.records[job('merge').findIndex((step) => String(step.run ?? '').includes('replay merge'))];

    // One replay of the whole log against the same snapshot: the same report, the same exit code.
    const logs = readdirSync(path.join(repository, 'logs')).sort().map((file) => path.join('logs', file));
    cpSync(path.join(snapshot.workspace, 'live.json'), path.join(merge.workspace, 'live.json'));
    const whole = await runCli(['replay', '--live', 'live.json', '--log-format', 'ndjson', '--format', 'json', ...logs], { cwd: merge.workspace, env: {} });
    expect(whole.code).toBe(2);
    expect(mergeStep?.result?.status).toBe(whole.code);
    const withoutEngine = (json: string) => {
      const { engine: _engine, ...report } = JSON.parse(json) as Record<string, unknown>;
      return report;
    };
    expect(withoutEngine(readFileSync(path.join(merge.workspace, 'replay.json'), 'utf8'))).toEqual(withoutEngine(whole.stdout));
  });

  it('refuses a number of shards that is not 1 to 64, before anything runs', async () => {
    const config = await run('config', { 'inputs.app': '', 'inputs.shards': '0; rm -rf /' });
    expect(failed(config.records).join('\n')).toContain('shards must be a number from 1 to 64');
  });
});
