// The chain cannot be downgraded, and an anchor kept outside the series shows what the chain
// alone cannot (docs/security.md, "The inventory chain"): through the real binary.
//  - A snapshot without a chain starts a series only when its botrules wrote none; stripped
//    from a snapshot of a later version, or from every snapshot, the chain is reported broken.
//  - Dropping the newest snapshot, or editing it and sealing it again, leaves a consistent
//    chain; `--anchor` with the head recorded when it was written shows both.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sealSnapshot } from '../../src/scripts/chain.js';
import type { Snapshot } from '../../src/scripts/model.js';
import { buildSnapshot } from '../../src/scripts/snapshot.js';
import { renderSnapshotJson } from '../../src/render/scripts/index.js';
import { runBinary } from '../helpers/binary.js';

const DAY = 86_400_000;
const START = Date.parse('2026-01-05T05:23:00Z');
let cwd: string;

beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'botrules-anchor-'));
  await mkdir(join(cwd, 'series'));
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

function unsealed(week: number, version: string): Snapshot {
  const records = [{ key: 'k0', id: 'https://cdn.example/a.js', risk: { level: 'low' } }];
  const snapshot = buildSnapshot({ query: { appId: ['app-demo'], tld: ['shop.example.com'], from: START + (week - 1) * 7 * DAY, to: START + week * 7 * DAY }, takenAt: START + week * 7 * DAY, records, warnings: [] });
  return { ...snapshot, tool: { name: 'botrules', version } };
}

function series(n: number, version = '0.2.0'): Snapshot[] {
  const out: Snapshot[] = [];
  for (let week = 1; week <= n; week++) out.push(sealSnapshot(unsealed(week, version), out.at(-1) ?? null));
  return out;
}

async function writeAll(snapshots: readonly Snapshot[]): Promise<void> {
  for (const [i, s] of snapshots.entries()) await writeFile(join(cwd, 'series', `week-${i + 1}.json`), renderSnapshotJson(s));
}

function stripped(snapshot: Snapshot): Snapshot {
  const { chain: _chain, ...rest } = snapshot;
  return rest;
}

const head = (snapshot: Snapshot | undefined) => snapshot?.chain?.sha256 ?? '';

describe('a chain stripped from the snapshots', () => {
  it('is broken when the version that wrote them writes chains', async () => {
    await writeAll(series(3).map(stripped));
    const result = await runBinary(cwd, 'scripts', 'verify', 'series');
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('Chain of appId app-demo; tld shop.example.com: 3 snapshots, broken (3 breaks)');
    expect(result.stdout).toContain('  stripped: series/week-1.json (taken 2026-01-12T05:23:00.000Z): carries no chain link, yet botrules 0.2.0 (which wrote it) writes one: its chain was removed');
  });

  it('is broken when no snapshot of the scope has one, whatever version they name', async () => {
    await writeAll(series(3, '0.1.0').map(stripped));
    const verified = await runBinary(cwd, 'scripts', 'verify', 'series');
    expect(verified.code).toBe(2);
    expect(verified.stdout).toContain('  unchained: series/week-3.json (taken 2026-01-26T05:23:00.000Z): no snapshot of appId app-demo; tld shop.example.com carries a chain');
    const evidence = await runBinary(cwd, 'scripts', 'evidence', 'series', '--from', '2026-01-01', '--to', '2026-01-31', '--format', 'json');
    expect(evidence.code).toBe(2);
    const pack = JSON.parse(evidence.stdout) as { verdict: { reasons: { code: string }[] } };
    expect(pack.verdict.reasons.map((r) => r.code)).toContain('chain-broken');
  });

  it('is broken after a chained snapshot even from a version that wrote none', async () => {
    const sealed = series(3, '0.1.0');
    await writeAll([sealed[0], sealed[1], stripped(sealed[2] as Snapshot)] as Snapshot[]);
    const result = await runBinary(cwd, 'scripts', 'verify', 'series');
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('  inserted: series/week-3.json');
  });
});

describe('scripts verify --anchor', () => {
  it('says what an unanchored check proves', async () => {
    await writeAll(series(2));
    const result = await runBinary(cwd, 'scripts', 'verify', 'series');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('  not anchored: the chain shows only that the snapshots present agree with each other; removing the newest, or editing snapshots and sealing them again, would not show without a head digest recorded elsewhere (--anchor)\n');
  });

  it('accepts the recorded head, from a file of heads, newest last', async () => {
    const three = series(3);
    await writeAll(three);
    await writeFile(join(cwd, 'heads.txt'), `# chain heads\n${head(three[0])} week-1\n${head(three[1])} week-2\n\n${head(three[2])} week-3\n`);
    const result = await runBinary(cwd, 'scripts', 'verify', 'series', '--anchor', 'heads.txt');
    expect(result.stdout).toContain(`  anchored: the anchor ${head(three[2])} (heads.txt) is series/week-3.json (taken 2026-01-26T05:23:00.000Z), the newest\n`);
    expect(result.code).toBe(0);
  });

  it('shows the newest snapshot removed, which the chain alone does not', async () => {
    const three = series(3);
    await writeAll(three.slice(0, 2));
    expect((await runBinary(cwd, 'scripts', 'verify', 'series')).code).toBe(0);
    const result = await runBinary(cwd, 'scripts', 'verify', 'series', '--anchor', head(three[2]));
    expect(result.code).toBe(2);
    expect(result.stdout).toContain(`  unanchored: series/week-2.json (taken 2026-01-19T05:23:00.000Z): the anchor ${head(three[2])} (the digest given) matches no snapshot here: the snapshot it names was removed, or edited and sealed again\n`);
  });

  it('shows the newest snapshot edited and sealed again', async () => {
    const three = series(3);
    const resealed = sealSnapshot({ ...stripped(three[2] as Snapshot), records: [], count: 0 }, three[1] as Snapshot);
    await writeAll([three[0], three[1], resealed] as Snapshot[]);
    expect((await runBinary(cwd, 'scripts', 'verify', 'series')).code).toBe(0);
    const result = await runBinary(cwd, 'scripts', 'verify', 'series', '--anchor', head(three[2]));
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('unanchored: series/week-3.json');
  });

  it('names the anchor in the evidence pack, and fails its verdict when the anchor is missing', async () => {
    const three = series(3);
    await writeAll(three.slice(0, 2));
    const evidence = await runBinary(cwd, 'scripts', 'evidence', 'series', '--from', '2026-01-01', '--to', '2026-01-31', '--format', 'json', '--anchor', head(three[2]));
    const pack = JSON.parse(evidence.stdout) as { chain: { anchor: string }; verdict: { reasons: { code: string; message: string }[] } };
    expect(pack.chain.anchor).toBe(`the anchor ${head(three[2])} (the digest given) matches no snapshot here`);
    expect(pack.verdict.reasons).toContainEqual({ code: 'chain-broken', message: 'the chain is broken: series/week-2.json unanchored (1 break)' });
    expect(evidence.code).toBe(2);
  });

  it('refuses an anchor file with a line that is not a digest, by line and column', async () => {
    await writeAll(series(1));
    await writeFile(join(cwd, 'heads.txt'), `${head(series(1)[0])}\n  sha256:abc\n`);
    const result = await runBinary(cwd, 'scripts', 'verify', 'series', '--anchor', 'heads.txt');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('heads.txt:2:3: not a digest: each line starts with sha256: and 64 lowercase hex digits');
  });
});
