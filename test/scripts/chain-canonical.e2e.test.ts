// The chain's digests are SHA-256 over RFC 8785 canonical JSON, recorded as
// `chain.canonical: rfc8785`, so that an assessor recomputes them with any tool
// (docs/inventory-chain.md): here with Python's standard library, which shares no code with
// botrules. Chains written before the field existed still verify (a series sealed by 0.1.0).
import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rfc8785Json, sealSnapshot } from '../../src/scripts/chain.js';
import type { Snapshot } from '../../src/scripts/model.js';
import { buildSnapshot } from '../../src/scripts/snapshot.js';
import { renderSnapshotJson } from '../../src/render/scripts/index.js';
import { runBinary } from '../helpers/binary.js';

const FIXTURE = 'test/fixtures/inventory-chain-0.1.0';
const START = Date.parse('2026-02-02T05:23:00Z');
let cwd: string;

beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'botrules-canonical-'));
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

/** The recipe of docs/inventory-chain.md, in Python: the digest of each file, as `sha256:…`. */
const PYTHON_RECIPE = `
import hashlib, json, sys
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        snapshot = json.load(f)
    snapshot["chain"].pop("sha256")
    text = json.dumps(snapshot, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    print("sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest())
`;

function pythonDigests(files: readonly string[]): string[] {
  const run = spawnSync('python3', ['-c', PYTHON_RECIPE, ...files], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  return run.stdout.trim().split('\n');
}

async function recorded(file: string): Promise<string> {
  return (JSON.parse(await readFile(file, 'utf8')) as Snapshot).chain?.sha256 ?? '';
}

test('a chain sealed by botrules 0.1.0 (no chain.canonical) still verifies', async () => {
  await cp(FIXTURE, join(cwd, 'series'), { recursive: true });
  const result = await runBinary(cwd, 'scripts', 'verify', 'series');
  expect(result.stdout).toContain('Chain of appId app-demo; tld shop.example.com: 2 snapshots, intact\n');
  expect(result.code).toBe(0);
});

test('a new snapshot records rfc8785, and Python recomputes every digest, old and new', async () => {
  const previous = JSON.parse(await readFile(join(FIXTURE, 'week-2.json'), 'utf8')) as Snapshot;
  const records = [
    { key: 'k1', id: 'https://cdn.example/ü/é.js?q=1', vendor: 'Vendör 😀', risk: { level: 'low', reason: 'line\u2028sep "q" \\ \t\u0001' }, users_affected_percentage: 12.5, page_types: ['checkout', 'Ωmega'] },
    { key: 'k2', id: 'https://cdn.example/b.js', users_affected_percentage: 33.333333333333336 },
  ];
  const next = sealSnapshot(buildSnapshot({ query: { appId: previous.query.appId, tld: previous.query.tld, from: START - 7 * 86_400_000, to: START }, takenAt: START, records, warnings: [] }), previous);
  expect(next.chain).toMatchObject({ canonical: 'rfc8785' });
  await writeFile(join(cwd, 'week-3.json'), renderSnapshotJson(next));
  const files = [join(FIXTURE, 'week-1.json'), join(FIXTURE, 'week-2.json'), join(cwd, 'week-3.json')];
  expect(pythonDigests(files)).toEqual(await Promise.all(files.map(recorded)));
  expect(next.chain?.previous?.sha256).toBe(await recorded(join(FIXTURE, 'week-2.json')));
});

test('records are made well-formed text, so every snapshot has a canonical form', () => {
  const snapshot = sealSnapshot(buildSnapshot({ query: { appId: ['a'], tld: ['t'], from: START - 1000, to: START }, takenAt: START, records: [{ key: 'k', id: 'https://x.example/\ud800.js', page_types: ['\udc00'] }], warnings: [] }), null);
  expect(snapshot.records[0]).toMatchObject({ id: 'https://x.example/\ufffd.js', page_types: ['\ufffd'] });
  expect(() => rfc8785Json({ id: '\ud800' })).toThrow('the snapshot is not canonical JSON (RFC 8785): Lone surrogate is not allowed');
});
