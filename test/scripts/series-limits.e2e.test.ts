// Snapshots read from a directory (`scripts verify`, `scripts evidence`, `--previous DIR`) have
// the same size and depth caps as any snapshot, named by file; a directory with a file that
// cannot be read is no quiet `--previous`; and one snapshot dated in the future does not block
// every later report until that date. Real binary, against the emulator where it fetches.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { sealSnapshot } from '../../src/scripts/chain.js';
import type { Snapshot } from '../../src/scripts/model.js';
import { buildSnapshot } from '../../src/scripts/snapshot.js';
import { renderSnapshotJson } from '../../src/render/scripts/index.js';
import { CLI_BINARY, runBinary } from '../helpers/binary.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { tempDir } from '../helpers/temp.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startTestEmulator({ generateScripts: 5, randomSeed: 9 });
});
afterAll(async () => {
  await emulator.close();
});

const DAY = 86_400_000;

function snapshotAt(takenAt: number, previous: Snapshot | null): Snapshot {
  return sealSnapshot(buildSnapshot({ query: { appId: ['app-demo'], tld: ['shop.example.com'], from: takenAt - 7 * DAY, to: takenAt }, takenAt, records: [{ key: 'k', id: 'https://cdn.example/a.js' }], warnings: [] }), previous);
}

async function report(cwd: string, ...args: string[]): Promise<{ code: number; stderr: string }> {
  const argv = [CLI_BINARY, 'scripts', 'report', '--app-id', 'app-demo', '--tld', 'shop.example.com', '--from', '60d', '--out', 'snap.json', ...args];
  return promisify(execFile)(process.execPath, argv, { cwd, env: { PATH: process.env.PATH ?? '', ...emulator.env } }).then(
    ({ stderr }) => ({ code: 0, stderr }),
    (error: { code?: number; stderr?: string }) => ({ code: error.code ?? -1, stderr: error.stderr ?? '' }),
  );
}

/** A series of one good snapshot, a 65 MiB file (sparse: only its size is real) and one nested 100,000 deep. */
function hostileSeries(): string {
  const cwd = tempDir('botrules-series-limits-');
  mkdirSync(path.join(cwd, 'series'));
  writeFileSync(path.join(cwd, 'series', 'good.json'), renderSnapshotJson(snapshotAt(Date.now() - DAY, null)));
  writeFileSync(path.join(cwd, 'series', 'huge.json'), '');
  truncateSync(path.join(cwd, 'series', 'huge.json'), 65 * 1024 * 1024);
  writeFileSync(path.join(cwd, 'series', 'deep.json'), `{"a":${'['.repeat(100_000)}`);
  return cwd;
}

test('scripts verify names a file past the size or depth cap as unreadable, and exits 2', async () => {
  const cwd = hostileSeries();
  const result = await runBinary(cwd, 'scripts', 'verify', 'series');
  expect(result.stdout).toContain('unreadable: series/huge.json: is 65 MiB, more than the 64 MiB botrules reads in a script inventory snapshot\n');
  expect(result.stdout).toContain('unreadable: series/deep.json: line 1, column 69: it nests more than 64 levels deep; no file botrules writes comes near that\n');
  expect(result.code).toBe(2);
});

test('scripts evidence counts them against the verdict', async () => {
  const cwd = hostileSeries();
  const result = await runBinary(cwd, 'scripts', 'evidence', 'series', '--from', '30d', '--format', 'json');
  const pack = JSON.parse(result.stdout) as { unreadable: { file: string }[] };
  expect(pack.unreadable.map((u) => u.file).sort()).toEqual(['series/deep.json', 'series/huge.json']);
  expect(result.code).toBe(2);
});

test('--previous DIR refuses a directory with a file it cannot read, before any request, naming it', async () => {
  const cwd = hostileSeries();
  const before = emulator.emulator.log.length;
  const result = await report(cwd, '--previous', 'series');
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('error: --previous series: 2 files cannot be read as a snapshot, and one may be the snapshot to link to\n');
  expect(result.stderr).toContain('  series/huge.json: is 65 MiB, more than the 64 MiB botrules reads in a script inventory snapshot\n');
  expect(emulator.emulator.log.length).toBe(before);
});

test('a snapshot dated in the future is passed over with a warning, not a block until that date', async () => {
  const cwd = tempDir('botrules-series-future-');
  mkdirSync(path.join(cwd, 'previous'));
  const past = snapshotAt(Date.now() - 7 * DAY, null);
  writeFileSync(path.join(cwd, 'previous', 'past.json'), renderSnapshotJson(past));
  writeFileSync(path.join(cwd, 'previous', 'future.json'), renderSnapshotJson(snapshotAt(Date.parse('2099-01-01T00:00:00Z'), past)));
  const result = await report(cwd, '--previous', 'previous');
  expect(result.stderr).toMatch(/^warning: --previous previous: previous\/future\.json was taken at 2099-01-01T00:00:00\.000Z, not before this report \(\S+\): a clock that ran ahead, or a forged date; not linked to, so scripts verify will report the chain forking there\n/);
  expect(result.stderr).toContain('Chain: linked to previous/past.json');
  expect(result.code).toBe(0);
  const written = JSON.parse(readFileSync(path.join(cwd, 'snap.json'), 'utf8')) as Snapshot;
  expect(written.chain?.previous?.sha256).toBe(past.chain?.sha256);
  // The fork is no quiet all-clear: verify over all three reports a break.
  renameSync(path.join(cwd, 'snap.json'), path.join(cwd, 'previous', 'now.json'));
  const verified = await runBinary(cwd, 'scripts', 'verify', 'previous');
  expect(verified.stdout).toContain('broken');
  expect(verified.code).toBe(2);
});

test('--previous FILE dated in the future is refused before any request', async () => {
  const cwd = tempDir('botrules-series-future-');
  writeFileSync(path.join(cwd, 'future.json'), renderSnapshotJson(snapshotAt(Date.parse('2099-01-01T00:00:00Z'), null)));
  const before = emulator.emulator.log.length;
  const result = await report(cwd, '--previous', 'future.json');
  expect(result.stderr).toMatch(/^error: --previous future\.json was taken at 2099-01-01T00:00:00\.000Z, not before this report/);
  expect(result.code).toBe(1);
  expect(emulator.emulator.log.length).toBe(before);
});
