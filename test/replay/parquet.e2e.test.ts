// `botrules replay` of Parquet through the real binary, against the emulator's live rules: the
// emulator writes the synthetic traffic as Parquet, replay reads it named with --log-format
// parquet, by its extension and by its PAR1 magic bytes alone, to the counts the same requests
// give as NDJSON; the hand-written warehouse export is mapped with replay.fields; bad files are
// errors naming the file, exit 1, with nothing on stdout.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { CLI_BINARY } from '../helpers/binary.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { tempDir } from '../helpers/temp.js';
import { DECLARED, LIVE } from './fixtures.js';

const FIXTURE = path.resolve('test/fixtures/logs/warehouse.parquet');
const REQUESTS = 4000;

let emulator: TestEmulator;
let project: string;
beforeAll(async () => {
  // Live: the fixture rules (checkout paused); declared: checkout active, login blocked instead of challenged.
  emulator = await startTestEmulator({ seedRules: LIVE.map(({ ruleId: _id, priority: _priority, ...rule }) => rule) });
  project = tempDir('botrules-parquet-e2e-');
  mkdirSync(path.join(project, 'rules'));
  writeFileSync(path.join(project, 'rules', 'shop.yaml'), stringify({ rules: DECLARED.map(({ ruleId: _id, ...rule }) => ({ ...rule, name: rule.name === 'Block login' ? 'Challenge login' : rule.name })) }));
  writeFileSync(path.join(project, 'botrules.yaml'), stringify({ apps: [{ name: 'default', rulesDir: 'rules' }] }));
});
afterAll(async () => {
  await emulator.close();
});

async function botrules(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI_BINARY, ...args], { cwd, env: { PATH: process.env.PATH ?? '', ...emulator.env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

interface Report {
  read: number;
  evaluated: number;
  transitions: { from: string; to: string; count: number }[];
  coverage: { undecided: number };
}

async function replayJson(cwd: string, ...args: string[]): Promise<{ code: number; report: Report }> {
  const result = await botrules(cwd, 'replay', '--format', 'json', ...args);
  expect(result.stderr).toBe('');
  return { code: result.code, report: JSON.parse(result.stdout) as Report };
}

const withoutFiles = (value: unknown): string => JSON.stringify(value).replace(/"file":"[^"]*"/g, '"file":""');

it('replays the emulator\'s Parquet traffic named, by its extension and by its magic bytes, as the same requests in NDJSON', async () => {
  for (const [file, format] of [['traffic.parquet', 'parquet'], ['traffic.ndjson', 'ndjson']]) {
    const written = await botrules(project, 'emulator', '--write-traffic', file ?? '', '--traffic-format', format ?? '', '--traffic-requests', String(REQUESTS), '--random-seed', '4');
    expect(written).toMatchObject({ code: 0, stderr: '' });
  }
  expect(readFileSync(path.join(project, 'traffic.parquet')).subarray(0, 4).toString('latin1')).toBe('PAR1');
  copyFileSync(path.join(project, 'traffic.parquet'), path.join(project, 'part-00000'));
  const ndjson = await replayJson(project, 'traffic.ndjson');
  expect(ndjson.report.transitions.length).toBeGreaterThan(0);
  for (const args of [['--log-format', 'parquet', 'traffic.parquet'], ['traffic.parquet'], ['part-00000']]) {
    const { code, report } = await replayJson(project, ...args);
    expect(report).toMatchObject({ read: REQUESTS, evaluated: REQUESTS, coverage: { undecided: 0 } });
    // The same counts, rules and example rows (their line numbers too): only the file named differs.
    expect(withoutFiles(report.transitions)).toEqual(withoutFiles(ndjson.report.transitions));
    expect(code).toBe(2);
  }
  // The text report names rows by their number in the file.
  const text = await botrules(project, 'replay', 'traffic.parquet');
  expect(text.stdout).toMatch(/e\.g\. traffic\.parquet:\d+ \{"path":"\/(login|checkout)/);
});

it('reads the warehouse export through replay.fields, and says what is unmapped without them', async () => {
  const dir = tempDir('botrules-parquet-warehouse-');
  mkdirSync(path.join(dir, 'rules'));
  copyFileSync(path.join(project, 'rules', 'shop.yaml'), path.join(dir, 'rules', 'shop.yaml'));
  copyFileSync(FIXTURE, path.join(dir, 'warehouse.parquet'));
  writeFileSync(path.join(dir, 'botrules.yaml'), stringify({ apps: [{ name: 'default', rulesDir: 'rules' }] }));
  const bare = await botrules(dir, 'replay', 'warehouse.parquet');
  expect(bare.stdout).toMatch(/Not read as requests: 24 lines carry none of the request fields, so their outcome is unknown \(first at warehouse\.parquet:1; its keys: event_time, request_id, request_path, /);
  expect(bare.code).not.toBe(0);
  writeFileSync(path.join(dir, 'botrules.yaml'), stringify({
    apps: [{ name: 'default', rulesDir: 'rules' }],
    replay: { fields: { path: 'request_path', query: 'query_string', userAgent: 'user_agent', country: 'geo.country_code', asn: 'client_asn', headers: 'request_headers' } },
  }));
  const { code, report } = await replayJson(dir, '--log-format', 'parquet', 'warehouse.parquet');
  expect(report).toMatchObject({ read: 24, evaluated: 24, coverage: { undecided: 1 } });
  expect(report.transitions.length).toBeGreaterThan(0);
  expect(code).toBe(2);
});

describe('bad files: an error naming the file, exit 1, nothing on stdout', () => {
  const refusal = async (file: string, bytes: Uint8Array | string, ...args: string[]) => {
    writeFileSync(path.join(project, file), bytes);
    const result = await botrules(project, 'replay', ...args, file);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    return result.stderr.split('\n')[0];
  };

  it('a file named .parquet that is not Parquet, and an NDJSON file named Parquet by --log-format', async () => {
    expect(await refusal('fake.parquet', '{"path":"/a"}\n')).toBe('error: fake.parquet: not a Parquet file: it does not start with the PAR1 magic bytes');
    expect(await refusal('real.ndjson', '{"path":"/a"}\n', '--log-format', 'parquet')).toBe('error: real.ndjson: not a Parquet file: it does not start with the PAR1 magic bytes');
  });

  it('a Parquet file cut short', async () => {
    const whole = readFileSync(FIXTURE);
    expect(await refusal('cut.parquet', whole.subarray(0, whole.length - 100))).toMatch(/^error: cut\.parquet: the Parquet file is cut short or damaged: /);
  });

  it('a column of a type its field cannot hold', async () => {
    // The warehouse export's `status` (INT32) mapped as the path.
    copyFileSync(FIXTURE, path.join(project, 'status.parquet'));
    const config = path.join(project, 'botrules.yaml');
    const before = readFileSync(config, 'utf8');
    writeFileSync(config, stringify({ apps: [{ name: 'default', rulesDir: 'rules' }], replay: { fields: { path: 'status' } } }));
    try {
      const result = await botrules(project, 'replay', 'status.parquet');
      expect(result).toMatchObject({ code: 1, stdout: '' });
      expect(result.stderr.split('\n')[0]).toBe('error: status.parquet: column "status" is INT32, but the request field path (replay.fields.path) needs a string column');
    } finally {
      writeFileSync(config, before);
    }
  });
});
