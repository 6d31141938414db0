// replay's progress line: on a terminal, one line on stderr redrawn in place from the bytes
// of the logs read and erased before the report; without a terminal, nothing at all.
import { copyFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { NDJSON, replayProject } from './fixtures.js';

const ERASE = '\r\u001b[2K';

let project: string;
beforeAll(() => {
  project = replayProject();
  writeFileSync(path.join(project, 'a.ndjson'), NDJSON);
});

it('draws the bar on a terminal and erases it before the report', async () => {
  const result = await runCli(['replay', '--live', 'live.json', '--no-color', 'a.ndjson'], { cwd: project, tty: true });
  expect(result.code).toBe(2);
  expect(result.stderr).toBe(`${ERASE}replay [${'#'.repeat(30)}] 1/1 KiB read, 7 lines${ERASE}`);
  expect(result.stdout.split('\n')[0]).toBe('Replayed 7 requests from 1 file for app "shop": 6 evaluated, 1 skipped; live = the live snapshot "live.json", declared = the rules as apply would leave them.');
});

it('plan --replay draws it too', async () => {
  const result = await runCli(['plan', '--live', 'live.json', '--no-color', '--replay', 'a.ndjson'], { cwd: project, tty: true });
  // Then the traffic limit's warning (traffic-limit.test.ts), on lines of its own.
  expect(result.stderr.split('warning: ')[0]).toBe(`${ERASE}replay [${'#'.repeat(30)}] 1/1 KiB read, 7 lines${ERASE}`);
});

it('counts a Parquet file\'s bytes row group by row group, to the whole file', async () => {
  copyFileSync(path.resolve('test/fixtures/logs/warehouse.parquet'), path.join(project, 'w.parquet'));
  const result = await runCli(['replay', '--live', 'live.json', '--no-color', 'w.parquet'], { cwd: project, tty: true });
  const frames = result.stderr.split(ERASE).filter((frame) => frame !== '');
  expect(frames.at(-1)).toBe(`replay [${'#'.repeat(30)}] 7/7 KiB read, 24 lines`);
});

it('prints nothing on stderr without a terminal', async () => {
  const result = await runCli(['replay', '--live', 'live.json', 'a.ndjson'], { cwd: project });
  expect(result.stderr).toBe('');
});
