// `replay --engine duckdb` gives the js engine's report (only the `engine` field differs) on the
// project's fixtures and on the emulator's synthetic traffic against generated rules; the query
// of `--emit-sql --dialect duckdb`, run in DuckDB over a table of the same (masked) requests,
// gives the replay's tally; `replay merge` of the shards of a log gives the replay of the whole.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { generateRules } from '../../../src/emulator/generate-rules.js';
import { trafficRequests } from '../../../src/emulator/generate-traffic.js';
import { seededRandom } from '../../../src/emulator/random.js';
import type { LiveRule, NormalRule } from '../../../src/semantics/model.js';
import { redactRequest } from '../../../src/replay/redact.js';
import type { TestRequest } from '../../../src/evaluate/request.js';
import { botrules, COMBINED, CSV, NDJSON, replayProject } from '../fixtures.js';
import { live } from '../../helpers/rules.js';

const REQUESTS = 4000;
const LIVE: LiveRule[] = generateRules(seededRandom(7), 120).map((rule, priority) => live({ ...rule, ruleId: `g-${priority}` }, priority));
const DECLARED: NormalRule[] = LIVE.map(({ priority, ...rule }) => (priority % 4 === 0 ? { ...rule, status: rule.status === 'active' ? 'paused' : 'active' } : rule));

interface Report {
  engine?: { name: string; requestsPerSecond: number };
  evaluated: number;
  transitions: { from: string; to: string; count: number; rules: { before?: string; after?: string; count: number }[] }[];
  [key: string]: unknown;
}

async function replayJson(project: string, ...args: string[]): Promise<{ code: number; report: Report }> {
  const result = await botrules(project, 'replay', '--live', 'live.json', '--format', 'json', ...args);
  expect(result.stderr).toBe('');
  return { code: result.code, report: JSON.parse(result.stdout) as Report };
}

function withoutEngine({ engine, ...report }: Report): Omit<Report, 'engine'> {
  expect(engine?.requestsPerSecond).toBeGreaterThan(0);
  return report;
}

let synthetic: string;
beforeAll(async () => {
  synthetic = replayProject(DECLARED, LIVE);
  await botrules(synthetic, 'emulator', '--write-traffic', 'traffic.ndjson', '--traffic-requests', String(REQUESTS), '--random-seed', '5');
});

it('gives the js engine\'s report on the fixture logs (NDJSON, CSV, gzip)', async () => {
  const project = replayProject();
  mkdirSync(path.join(project, 'logs'));
  writeFileSync(path.join(project, 'logs', 'a.ndjson'), NDJSON);
  writeFileSync(path.join(project, 'logs', 'b.csv'), CSV);
  writeFileSync(path.join(project, 'access.log.gz'), gzipSync(COMBINED));
  for (const logs of [['logs'], ['access.log.gz']]) {
    const js = await replayJson(project, '--engine', 'js', ...logs);
    const duckdb = await replayJson(project, '--engine', 'duckdb', ...logs);
    expect(js.report.engine?.name).toBe('js');
    expect(duckdb.report.engine?.name).toBe('duckdb');
    expect(withoutEngine(duckdb.report)).toEqual(withoutEngine(js.report));
    expect(duckdb.code).toBe(js.code);
  }
});

it('gives the js engine\'s report on synthetic traffic against generated rules', async () => {
  const js = await replayJson(synthetic, 'traffic.ndjson');
  const duckdb = await replayJson(synthetic, '--engine', 'duckdb', 'traffic.ndjson');
  expect(js.report.transitions.length).toBeGreaterThan(1);
  expect(withoutEngine(duckdb.report)).toEqual(withoutEngine(js.report));
});

it('gives plan --replay the same replay with --engine duckdb', async () => {
  const planned = async (engine: string) => {
    const result = await botrules(synthetic, 'plan', '--live', 'live.json', '--replay', 'traffic.ndjson', '--engine', engine, '--format', 'json', '--no-behaviour-diff');
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout) as { replay: Report; apps: { replay: unknown }[] };
  };
  const [js, duckdb] = [await planned('js'), await planned('duckdb')];
  expect(duckdb.replay.engine?.name).toBe('duckdb');
  expect(withoutEngine(duckdb.replay)).toEqual(withoutEngine(js.replay));
  expect(duckdb.apps.map((app) => app.replay)).toEqual(js.apps.map((app) => app.replay));
});

it('emits a DuckDB query that tallies a table of the same requests as the replay does', async () => {
  const emitted = await botrules(synthetic, 'replay', '--live', 'live.json', '--emit-sql', '--dialect', 'duckdb', '--table', 'requests');
  expect(emitted.code).toBe(0);
  const rows = [...trafficRequests(REQUESTS, 5)].map((request) => tableRow(redactRequest(JSON.parse(JSON.stringify(request)) as TestRequest)));
  writeFileSync(path.join(synthetic, 'table.ndjson'), rows.join('\n'));
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run(`CREATE TABLE requests AS SELECT * FROM read_json('${path.join(synthetic, 'table.ndjson')}', format = 'newline_delimited', columns = {path: 'VARCHAR', method: 'VARCHAR', userAgent: 'VARCHAR', ip: 'VARCHAR', asn: 'VARCHAR', country: 'VARCHAR', domain: 'VARCHAR', deviceType: 'VARCHAR', headers: 'MAP(VARCHAR, VARCHAR)', query: 'MAP(VARCHAR, VARCHAR)', custom: 'MAP(VARCHAR, VARCHAR)'})`);
    const tally = (await connection.runAndReadAll(emitted.stdout)).getRowObjectsJson() as { live_rule: string | null; live_outcome: string; declared_rule: string | null; declared_outcome: string; requests: string }[];
    const { report } = await replayJson(synthetic, 'traffic.ndjson');
    expect(tally.reduce((sum, row) => sum + Number(row.requests), 0)).toBe(report.evaluated);
    const changed = new Map<string, number>();
    for (const row of tally) {
      if (row.live_outcome === row.declared_outcome) continue;
      const key = `${row.live_outcome}>${row.declared_outcome}`;
      changed.set(key, (changed.get(key) ?? 0) + Number(row.requests));
    }
    expect(changed).toEqual(new Map(report.transitions.map((t) => [`${t.from}>${t.to}`, t.count])));
    const pairs = (t: Report['transitions'][number]) => t.rules.map((pair) => `${pair.before ?? null}>${pair.after ?? null}=${pair.count}`).sort();
    for (const transition of report.transitions) {
      const fromSql = tally.filter((row) => row.live_outcome === transition.from && row.declared_outcome === transition.to).map((row) => `${row.live_rule}>${row.declared_rule}=${row.requests}`).sort();
      expect(fromSql).toEqual(pairs(transition));
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
});

it('merges the reports of the shards of a log into the report of the whole log', async () => {
  const lines = [...trafficRequests(REQUESTS, 5)].map((request) => JSON.stringify(request));
  const cuts = [0, 700, 701, 2500, REQUESTS];
  mkdirSync(path.join(synthetic, 'shards'), { recursive: true });
  const reports: string[] = [];
  for (let shard = 0; shard + 1 < cuts.length; shard++) {
    const file = path.join('shards', `part-${shard}.ndjson`);
    writeFileSync(path.join(synthetic, file), lines.slice(cuts[shard], cuts[shard + 1]).join('\n'));
    const { report } = await replayJson(synthetic, '--engine', shard % 2 === 0 ? 'js' : 'duckdb', file);
    reports.push(`report-${shard}.json`);
    writeFileSync(path.join(synthetic, `report-${shard}.json`), JSON.stringify({ formatVersion: 1, ...report }));
  }
  writeFileSync(path.join(synthetic, 'whole.ndjson'), lines.join('\n'));
  const whole = await replayJson(synthetic, 'whole.ndjson');
  const merged = await botrules(synthetic, 'replay', 'merge', ...reports, '--format', 'json');
  expect(merged.stderr).toBe('');
  expect(merged.code).toBe(whole.code);
  const { formatVersion: _version, files, ...mergedReport } = JSON.parse(merged.stdout) as Report & { formatVersion: number; files: string[] };
  const { engine: _engine, files: _files, formatVersion: _format, transitions, ...wholeReport } = whole.report;
  expect(files).toEqual(reports.map((_, shard) => path.join('shards', `part-${shard}.ndjson`)));
  // Examples name their shard's file; everything else is the whole log's report.
  const examplesOff = (list: Report['transitions']) => list.map((t) => ({ ...t, examples: (t as unknown as { examples: unknown[] }).examples.length }));
  expect({ ...mergedReport, transitions: examplesOff(mergedReport.transitions) }).toEqual({ ...wholeReport, transitions: examplesOff(transitions) });
});

it('refuses to merge what is not a replay report, naming the file', async () => {
  writeFileSync(path.join(synthetic, 'not-a-report.json'), '{"hello": 1}');
  const result = await botrules(synthetic, 'replay', 'merge', 'not-a-report.json');
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('not-a-report.json is not a replay report');
});

/** A request as a row of the table --emit-sql reads: header names lower-case (the first spelling wins). */
function tableRow(request: TestRequest): string {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) if (!(name.toLowerCase() in headers)) headers[name.toLowerCase()] = value;
  return JSON.stringify({ ...request, ...(request.headers === undefined ? {} : { headers }) });
}
