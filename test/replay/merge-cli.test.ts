// `botrules replay merge REPORT.json…` as a user runs it: the reports of the shards of a log give
// the whole log's report and its exit code (2 when outcomes change, 0 only when every request is
// decided and none changes); a file that is not a report, a report cut short, and reports of
// another app or other rule sets are errors naming the file, with nothing merged on stdout.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { botrules, DECLARED, NDJSON, replayProject } from './fixtures.js';

const LINES = NDJSON.split('\n').filter((line) => line !== '');
/** Requests no rule change touches: the monitor (allow before and after) and /about (no rule before and after). */
const QUIET = [LINES[3], LINES[6]] as string[];

async function replayTo(project: string, report: string, lines: readonly string[]): Promise<number> {
  const log = report.replace(/\.json$/, '.ndjson');
  writeFileSync(path.join(project, log), `${lines.join('\n')}\n`);
  const result = await botrules(project, 'replay', '--live', 'live.json', '--format', 'json', log);
  writeFileSync(path.join(project, report), result.stdout);
  return result.code;
}

/** A JSON report without what differs between a merge and one replay: the files, the timing, where each example was read. */
function comparable(json: string): unknown {
  const { files: _files, engine: _engine, ...report } = JSON.parse(json) as Record<string, unknown>;
  return JSON.parse(JSON.stringify(report), (key, value: unknown) => (key === 'file' || key === 'line' ? undefined : value));
}

it('merges the shards of a log into the report of the whole log, with its exit code', async () => {
  const project = replayProject();
  for (const [lines, expectedCode] of [[LINES, 2], [QUIET, 0]] as const) {
    expect(await replayTo(project, 'whole.json', lines)).toBe(expectedCode);
    await replayTo(project, 'a.json', lines.slice(0, 1));
    await replayTo(project, 'b.json', lines.slice(1));
    const merged = await botrules(project, 'replay', 'merge', 'a.json', 'b.json', '--format', 'json');
    expect(merged.stderr).toBe('');
    expect(merged.code).toBe(expectedCode);
    expect(comparable(merged.stdout)).toEqual(comparable(readFileSync(path.join(project, 'whole.json'), 'utf8')));
    expect((JSON.parse(merged.stdout) as { files: string[] }).files).toEqual(['a.ndjson', 'b.ndjson']);
  }
  const text = await botrules(project, 'replay', 'merge', 'a.json', 'b.json');
  expect(text.code).toBe(0);
  expect(text.stdout).toContain('2 requests');
});

describe('refuses what it cannot merge, naming the file, merging nothing', () => {
  const project = replayProject();
  beforeAll(async () => {
    await replayTo(project, 'a.json', LINES.slice(0, 3));
    await replayTo(project, 'b.json', LINES.slice(3));
  });

  async function refused(...reports: string[]): Promise<string> {
    const result = await botrules(project, 'replay', 'merge', ...reports);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    return result.stderr;
  }

  it('a file that is not JSON, or not a report', async () => {
    writeFileSync(path.join(project, 'notes.txt'), 'shard one went fine\n');
    expect(await refused('a.json', 'notes.txt')).toContain('notes.txt:1:1: not JSON');
    writeFileSync(path.join(project, 'other.json'), '{"formatVersion": 1, "app": "shop"}');
    expect(await refused('a.json', 'other.json')).toContain('other.json is not a replay report (against)');
    writeFileSync(path.join(project, 'plan.json'), JSON.stringify({ formatVersion: 3, apps: [] }));
    expect(await refused('plan.json')).toContain('plan.json is not a replay report (formatVersion is not 1)');
    expect(await refused('a.json', 'missing.json')).toContain('cannot read the report missing.json (ENOENT)');
  });

  it('a report cut short', async () => {
    const whole = readFileSync(path.join(project, 'b.json'), 'utf8');
    writeFileSync(path.join(project, 'cut.json'), whole.slice(0, Math.floor(whole.length / 2)));
    const lines = whole.slice(0, Math.floor(whole.length / 2)).split('\n');
    expect(await refused('a.json', 'cut.json')).toContain(`cut.json:${lines.length}:${(lines[lines.length - 1] as string).length + 1}: the report is cut short`);
  });

  it('reports of another app, or of other rule sets', async () => {
    const report = JSON.parse(readFileSync(path.join(project, 'b.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(path.join(project, 'other-app.json'), JSON.stringify({ ...report, app: 'blog\u001b[31m' }));
    const otherApp = await refused('a.json', 'other-app.json');
    expect(otherApp).toContain('other-app.json and a.json are not shards of one replay: the app is "blog\\u001b[31m" in one and "shop" in the other');
    // The same log replayed against rule files that no longer block login.
    const changed = replayProject(DECLARED.map((rule) => (rule.name === 'Block login' ? { ...rule, actions: ['blockWithChallenge'] } : rule)));
    await replayTo(changed, 'b.json', LINES.slice(3));
    writeFileSync(path.join(project, 'b-changed.json'), readFileSync(path.join(changed, 'b.json')));
    expect(await refused('a.json', 'b-changed.json')).toContain('b-changed.json and a.json are not shards of one replay: they compare other rule sets');
  });
});
