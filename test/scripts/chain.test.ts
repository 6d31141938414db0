// The chain of snapshots and `scripts verify`: every way a series can be tampered with is
// named by the snapshot it concerns; snapshots from before the chain are accepted as its start.
import { cp, mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rfc8785Json, sealSnapshot, snapshotDigest } from '../../src/scripts/chain.js';
import type { Snapshot } from '../../src/scripts/model.js';
import { buildSnapshot } from '../../src/scripts/snapshot.js';
import { renderSnapshotJson } from '../../src/render/scripts/index.js';
import { runCli } from '../helpers/cli.js';

const DAY = 86_400_000;
const START = Date.parse('2026-01-05T05:23:00Z');
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'botrules-chain-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function unsealed(week: number, scripts = 3, appId = 'app-demo'): Snapshot {
  const records = Array.from({ length: scripts }, (_, i) => ({ key: `k${i}`, id: `https://cdn.example/${i}.js`, risk: { level: 'low' } }));
  return buildSnapshot({ query: { appId: [appId], tld: ['shop.example.com'], from: START + (week - 1) * 7 * DAY, to: START + week * 7 * DAY }, takenAt: START + week * 7 * DAY, records, warnings: [] });
}

/** A sealed series of `n` weekly snapshots, each linked to the one before. */
function series(n: number): Snapshot[] {
  const out: Snapshot[] = [];
  let previous: Snapshot | null = null;
  for (let week = 1; week <= n; week++) {
    const sealed = sealSnapshot(unsealed(week), previous);
    out.push(sealed);
    previous = sealed;
  }
  return out;
}

async function write(name: string, snapshot: Snapshot): Promise<void> {
  await mkdir(join(dir, name, '..'), { recursive: true });
  await writeFile(join(dir, name), renderSnapshotJson(snapshot));
}

async function writeAll(snapshots: Snapshot[]): Promise<void> {
  for (const [i, s] of snapshots.entries()) await write(`week-${i + 1}.json`, s);
}


/** Runs verify on `dir` through a symlink-free path: the directory itself is called "series". */
async function verifyDir(): Promise<{ code: number; lines: string[]; stderr: string }> {
  const parent = await mkdtemp(join(tmpdir(), 'botrules-chain-run-'));
  try {
    await cp(dir, join(parent, 'series'), { recursive: true });
    const result = await runCli(['scripts', 'verify', 'series'], { cwd: parent });
    return { code: result.code, stderr: result.stderr, lines: result.stdout.split('\n').filter((l) => !l.startsWith('  newest: ') && !l.startsWith('  not anchored: ') && l !== '') };
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
}

describe('the digest', () => {
  it('is of canonical content: key order and whitespace do not matter, chain.sha256 is left out', () => {
    const [one] = series(1) as [Snapshot];
    const { records, ...rest } = one;
    const reordered = JSON.parse(JSON.stringify({ records, ...rest }, null, 4)) as Snapshot;
    expect(snapshotDigest(reordered)).toBe(one.chain?.sha256);
    expect(rfc8785Json({ b: 1, a: [true, null, 'x'], __proto__x: 2 })).toBe('{"__proto__x":2,"a":[true,null,"x"],"b":1}');
  });

  it('keeps a field named __proto__ as data', () => {
    const value = JSON.parse('{"__proto__": {"x": 1}, "a": 2}') as unknown;
    expect(rfc8785Json(value)).toBe('{"__proto__":{"x":1},"a":2}');
  });
});

describe('scripts verify', () => {
  it('accepts an intact chain and exits 0', async () => {
    await writeAll(series(4));
    expect(await verifyDir()).toEqual({ code: 0, stderr: '', lines: [
      'Chain of appId app-demo; tld shop.example.com: 4 snapshots, intact',
      '  the chain starts at series/week-1.json',
    ] });
  });

  it('counts the same snapshot downloaded twice once', async () => {
    const four = series(4);
    await writeAll(four);
    await write('run-5/previous/scripts-snapshot.json', four[3] as Snapshot);
    const result = await verifyDir();
    expect(result.code).toBe(0);
    expect(result.lines[0]).toBe('Chain of appId app-demo; tld shop.example.com: 4 snapshots, intact');
  });

  it('names a removed snapshot by when it was taken and the files around it', async () => {
    await writeAll(series(4));
    await unlink(join(dir, 'week-2.json'));
    expect(await verifyDir()).toEqual({ code: 2, stderr: '', lines: [
      'Chain of appId app-demo; tld shop.example.com: 3 snapshots, broken (1 break)',
      '  the chain starts at series/week-1.json',
      '  first break: the snapshot taken at 2026-01-19T05:23:00.000Z is missing, between series/week-1.json and series/week-3.json',
      '  removed: series/week-3.json (taken 2026-01-26T05:23:00.000Z): links to a snapshot taken at 2026-01-19T05:23:00.000Z, which is missing between series/week-1.json and it',
    ] });
  });

  it('names an inserted snapshot, even one sealed with a valid link', async () => {
    const four = series(4);
    await writeAll(four);
    const forged = sealSnapshot({ ...unsealed(2, 2), takenAt: '2026-01-20T00:00:00.000Z' }, four[1] as Snapshot);
    await write('week-2b.json', forged);
    const result = await verifyDir();
    expect(result.code).toBe(2);
    expect(result.lines.slice(2)).toEqual([
      '  first break: series/week-2b.json inserted',
      '  inserted: series/week-2b.json (taken 2026-01-20T00:00:00.000Z): the chain does not pass through it: series/week-3.json links to series/week-2.json',
    ]);
  });

  it('names a snapshot edited and resealed by the link the next one holds', async () => {
    const four = series(4);
    const edited = sealSnapshot({ ...(four[1] as Snapshot), records: [], count: 0 }, four[0] as Snapshot);
    await writeAll([four[0], edited, four[2], four[3]] as Snapshot[]);
    const result = await verifyDir();
    expect(result.lines.slice(2)).toEqual([
      '  first break: series/week-2.json altered',
      '  altered: series/week-2.json (taken 2026-01-19T05:23:00.000Z): its content changed after series/week-3.json linked to it',
    ]);
  });

  it('names a snapshot that starts a new chain in the middle', async () => {
    const four = series(4);
    await writeAll([four[0], four[1], sealSnapshot(unsealed(3), null)] as Snapshot[]);
    const result = await verifyDir();
    expect(result.lines.slice(2)).toEqual([
      '  first break: series/week-3.json unlinked',
      '  unlinked: series/week-3.json (taken 2026-01-26T05:23:00.000Z): starts a new chain instead of linking to series/week-2.json (taken 2026-01-19T05:23:00.000Z): inserted, or written without --previous',
    ]);
  });

  it('accepts snapshots written before the chain as its start, and says so', async () => {
    const legacy = [unsealed(1), unsealed(2)];
    const third = sealSnapshot(unsealed(3), legacy[1] as Snapshot);
    await writeAll([...legacy, third, sealSnapshot(unsealed(4), third)]);
    expect(await verifyDir()).toEqual({ code: 0, stderr: '', lines: [
      'Chain of appId app-demo; tld shop.example.com: 4 snapshots, intact',
      '  2 snapshots written before the chain existed are accepted as its start; the chain continues from them at series/week-3.json',
    ] });
  });

  it('reports a damaged file as unreadable, exit 2, and leaves other JSON files out', async () => {
    await writeAll(series(2));
    await writeFile(join(dir, 'week-3.json'), '{"formatVersion": 1, "query": ');
    await writeFile(join(dir, 'pack.json'), '{"kind": "botrules-evidence"}');
    const result = await verifyDir();
    expect(result.code).toBe(2);
    expect(result.lines.slice(2)).toEqual([
      expect.stringMatching(/^unreadable: series\/week-3\.json: not JSON \(/),
      '1 other JSON file (not snapshots) left out',
    ]);
  });

  it('keeps each scope apart', async () => {
    await writeAll(series(2));
    await write('other.json', sealSnapshot(unsealed(1, 1, 'app-other'), null));
    const result = await verifyDir();
    expect(result.code).toBe(0);
    expect(result.lines.filter((l) => l.startsWith('Chain'))).toEqual([
      'Chain of appId app-demo; tld shop.example.com: 2 snapshots, intact',
      'Chain of appId app-other; tld shop.example.com: 1 snapshot, intact',
    ]);
  });

  it('is an error (exit 1) on a directory without snapshots', async () => {
    const result = await runCli(['scripts', 'verify', '.'], { cwd: dir });
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'error: . holds no botrules snapshot\nSnapshots are written by `botrules scripts report --format json`.\n' });
  });
});

describe('scripts report --previous', () => {
  it('refuses a predecessor of other apps before any request', async () => {
    await write('old.json', sealSnapshot(unsealed(1, 1, 'app-other'), null));
    const result = await runCli(['scripts', 'report', '--app-id', 'app-demo', '--tld', 'shop.example.com', '--previous', 'old.json'], { cwd: dir, env: { BOTRULES_GATEWAY_URL: 'https://127.0.0.1:9', BOTRULES_API_TOKEN: 't' } });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n').slice(0, 3)).toEqual([
      'error: --previous old.json covers other apps or domains, so it cannot be this report\'s predecessor',
      'old.json: appId app-other; tld shop.example.com',
      'this report: appId app-demo; tld shop.example.com',
    ]);
  });

  it('applies to json only', async () => {
    const result = await runCli(['scripts', 'report', '--app-id', 'a', '--tld', 't', '--format', 'markdown', '--previous', 'x'], { cwd: dir });
    expect(result).toMatchObject({ code: 1, stderr: 'error: --previous links a json snapshot into the chain; use it with --format json\n' });
  });
});
