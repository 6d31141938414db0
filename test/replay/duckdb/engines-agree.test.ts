// `--engine duckdb` gives the js engine's JSON report whole (only the `engine` field differs),
// with the accounting of fields a log lacks, lines carrying no request field, production's
// recorded decisions, shadow rules and a baseline: on every fixture log of test/fixtures/logs
// (one per --log-format preset) and on the emulator's synthetic traffic in every format it
// writes, against generated rules a change pauses, resumes and puts in shadow.
import { copyFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TRAFFIC_FORMATS } from '../../../src/emulator/traffic-formats.js';
import { generateRules } from '../../../src/emulator/generate-rules.js';
import { seededRandom } from '../../../src/emulator/random.js';
import type { LiveRule, Rule } from '../../../src/semantics/model.js';
import { live } from '../../helpers/rules.js';
import { botrules, DECLARED as FIXTURE_DECLARED, LIVE as FIXTURE_LIVE, replayProject } from '../fixtures.js';

const FIXTURES = path.resolve('test/fixtures/logs');
const PRESETS: [string, string][] = [['requests.ndjson', 'ndjson'], ['requests.csv', 'csv'], ['access.log', 'combined'], ['cloudfront.log', 'cloudfront'], ['alb.log', 'alb'], ['cloudflare.ndjson', 'cloudflare'], ['human.ndjson', 'human'], ['session.har', 'har']];

/** The generated rules' themes alone (their random extra groups make early catch-alls that decide every request). */
const GENERATED: LiveRule[] = generateRules(seededRandom(11), 150).map((rule, priority) => live({
  ...rule, ruleId: `g-${priority}`, conditions: { operator: '$and', children: [rule.conditions.children[0] as Rule['conditions']['children'][number]] },
}, priority));
/** Every third rule toggled (paused ↔ active), every tenth declared a shadow rule: changes on every field the generator reads. */
const GENERATED_DECLARED: Rule[] = GENERATED.map(({ priority, ...rule }) => {
  if (priority % 10 === 5) {
    const { status: _status, ...paused } = rule;
    return { ...paused, mode: 'shadow' } as unknown as Rule;
  }
  return priority % 3 === 0 ? { ...rule, status: rule.status === 'active' ? 'paused' : 'active' } : rule;
});
/** The fixture rules plus a changed rule on the x-monitor header and one on the country: fields most presets lack. */
const FIXTURE_WIDER: Rule[] = [
  ...FIXTURE_DECLARED,
  { name: 'Block monitors from FR', description: '', status: 'active', actions: ['hardBlock'], conditions: { operator: '$and', children: [{ operator: '$and', children: [
    { conditionType: 'header', fieldOption: 'x-monitor', operator: '$exists' }, { conditionType: 'country', operator: '$in', value: ['FR'] },
  ] }] } },
];

interface Report {
  engine?: { name: string; requestsPerSecond: number };
  [key: string]: unknown;
}

async function replayJson(project: string, engine: string, ...args: string[]): Promise<{ code: number; report: Report; stdout: string }> {
  const result = await botrules(project, 'replay', '--live', 'live.json', '--format', 'json', '--engine', engine, ...args);
  expect(result.stderr).toBe('');
  return { code: result.code, report: JSON.parse(result.stdout) as Report, stdout: result.stdout };
}

/** Both engines on the same logs: the same JSON whole but for the engine, and the same exit code. */
async function expectSameReport(project: string, ...args: string[]): Promise<Report> {
  const js = await replayJson(project, 'js', ...args);
  const duckdb = await replayJson(project, 'duckdb', ...args);
  expect(js.report.engine?.name).toBe('js');
  expect(duckdb.report.engine?.name).toBe('duckdb');
  expect(duckdb.report.engine?.requestsPerSecond).toBeGreaterThan(0);
  const { engine: _js, ...jsRest } = js.report;
  const { engine: _duckdb, ...duckdbRest } = duckdb.report;
  expect(duckdbRest).toEqual(jsRest);
  expect(duckdb.code).toBe(js.code);
  return js.report;
}

describe.each([['the fixture rules', FIXTURE_DECLARED], ['the fixture rules and a changed rule on a header and a country', FIXTURE_WIDER]] as const)('fixture logs under %s', (_title, declared) => {
  let project: string;
  beforeAll(() => {
    project = replayProject(declared, FIXTURE_LIVE);
    for (const [file] of PRESETS) copyFileSync(path.join(FIXTURES, file), path.join(project, file));
  });

  it.each(PRESETS)('%s (--log-format %s): the same report from both engines', async (file, preset) => {
    const report = await expectSameReport(project, '--log-format', preset, file);
    expect(report['coverage']).toBeDefined();
    if (preset === 'human') expect(report['production']).toBeDefined();
  });

  it('all the fixture logs at once, compared with a baseline', async () => {
    const files = PRESETS.map(([file]) => file);
    const first = await replayJson(project, 'js', ...files);
    writeFileSync(path.join(project, 'baseline.json'), first.stdout);
    const report = await expectSameReport(project, '--baseline', 'baseline.json', ...files);
    expect(report['baseline']).toBeDefined();
  });
});

describe('synthetic traffic against generated rules', () => {
  let project: string;
  beforeAll(async () => {
    project = replayProject(GENERATED_DECLARED, GENERATED);
    for (const format of TRAFFIC_FORMATS) {
      const written = await botrules(project, 'emulator', '--write-traffic', `traffic.${format}`, '--traffic-format', format, '--traffic-requests', '1500', '--random-seed', '3');
      expect(written.code).toBe(0);
    }
  });

  it.each(TRAFFIC_FORMATS)('written as %s: the same report from both engines, shadow rules included', async (format) => {
    const report = await expectSameReport(project, '--log-format', format, `traffic.${format}`);
    // Transitions where the format carries what the changed rules read, undecided requests where it does not.
    const { transitions, coverage } = report as { transitions: unknown[]; coverage: { undecided: number } };
    expect(transitions.length + coverage.undecided).toBeGreaterThan(0);
    expect(report['shadow']).toBeDefined();
  });
});
