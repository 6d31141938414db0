// writeInventoryReport with an in-memory page source: formats, policy marks and failure handling.
// The same paths run against the emulator in report-cli.e2e.test.ts.
import { checkSnapshotSize } from '../../src/scripts/snapshot.js';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { RemoteError } from '../../src/errors.js';
import type { PageSource } from '../../src/scripts/fetch.js';
import type { ScriptRecord, Snapshot } from '../../src/scripts/model.js';
import { openOutput } from '../../src/scripts/output.js';
import { writeInventoryReport } from '../../src/scripts/report.js';
import { REPORT_OUTPUTS, type ReportFormat } from '../../src/render/scripts/index.js';
import { NO_COLORS } from '../../src/render/contract.js';

const QUERY = { appId: ['app'], tld: ['shop.example'], from: Date.UTC(2025, 5, 1), to: Date.UTC(2025, 5, 2) };
const NOW = Date.UTC(2025, 5, 2);
const DATA: ScriptRecord[] = Array.from({ length: 45 }, (_, i) => ({
  key: `k${String(44 - i).padStart(2, '0')}`,
  id: i % 3 === 0 ? `https://js.stripe.com/v3/${i}.js` : `https://cdn.example/${i}.js`,
  vendor: i % 3 === 0 ? 'Stripe' : 'Other',
  risk: { level: i % 5 === 0 ? 'high' : 'low' },
}));

/** What the source throws for the page at `failAtSkip`: the report must hand on this very error. */
const PAGE_FAILURE = new RemoteError('listing scripts (skip 30, take 10) failed after 5 attempts: the service answered 500', { operation: 'listing scripts', status: 500 });

function source(failAtSkip?: number): PageSource {
  return async (query) => {
    if (query.skip === failAtSkip) throw PAGE_FAILURE;
    return { paging: { previous: '', current: '', next: '', count: DATA.length }, data: DATA.slice(query.skip, query.skip + query.take) };
  };
}

const POLICY = {
  file: 'scripts-policy.yaml',
  entries: [{ pattern: 'https://js.stripe.com/*', justification: 'payments', owner: 'payments', source: { file: 'scripts-policy.yaml', line: 2, col: 5 } }],
};

describe('writeInventoryReport', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'botrules-report-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function report(format: ReportFormat, failAtSkip?: number) {
    const output = await openOutput('out', { cwd: dir, stdout: new PassThrough() });
    const render = (model: Parameters<(typeof REPORT_OUTPUTS)[ReportFormat]['stdout']>[0]) => Promise.resolve(REPORT_OUTPUTS[format].stdout(model, { write: output.emit }, { colors: NO_COLORS }));
    return writeInventoryReport(source(failAtSkip), { query: QUERY, render, pageSize: 10, concurrency: 3, now: NOW, policy: POLICY, output });
  }

  it('writes a sorted snapshot with approval marks', async () => {
    const result = await report('json');
    expect(result).toMatchObject({ count: 45, unapproved: 30, warnings: [] });
    const snapshot = JSON.parse(await readFile(join(dir, 'out'), 'utf8')) as Snapshot;
    expect(snapshot).toMatchObject({ formatVersion: 1, count: 45, policy: { file: 'scripts-policy.yaml' }, takenAt: '2025-06-02T00:00:00.000Z' });
    expect(snapshot.records.map((r) => r.key)).toEqual([...DATA.map((r) => r.key)].sort());
    const stripe = snapshot.records.find((r) => r.vendor === 'Stripe');
    expect(stripe).toMatchObject({ approved: true, approvedBy: 'pattern: https://js.stripe.com/*' });
    expect(snapshot.records.find((r) => r.vendor === 'Other')?.approved).toBe(false);
  });

  it.each(['json', 'ndjson', 'csv', 'markdown'] as const)('leaves no %s file when a page fails', async (format) => {
    // The client's own error (its status, its sentence for the user), not one rewrapped or swallowed.
    await expect(report(format, 30)).rejects.toBe(PAGE_FAILURE);
    expect(await readdir(dir)).toEqual([]);
  });

  it('streams ndjson with every record once', async () => {
    await report('ndjson');
    const lines = (await readFile(join(dir, 'out'), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(45);
    expect(new Set(lines.map((l) => (JSON.parse(l) as ScriptRecord).key)).size).toBe(45);
  });

  it.each(['json', 'markdown'] as const)('refuses, and writes no %s file, when the records a snapshot must hold pass 64 MiB', async (format) => {
    // 70 records of 1 MiB each (one string shared, so the test itself holds little).
    const huge = 'x'.repeat(1024 * 1024);
    const endless: PageSource = async (query) => ({
      paging: { previous: '', current: '', next: '', count: 70 },
      data: Array.from({ length: Math.min(query.take, 70 - query.skip) }, (_, i) => ({ key: `k${query.skip + i}`, id: `https://cdn.example/${huge}`, vendor: 'Other', risk: { level: 'low' } })),
    });
    const output = await openOutput('out', { cwd: dir, stdout: new PassThrough() });
    const render = (model: Parameters<(typeof REPORT_OUTPUTS)[ReportFormat]['stdout']>[0]) => Promise.resolve(REPORT_OUTPUTS[format as ReportFormat].stdout(model, { write: output.emit }, { colors: NO_COLORS }));
    await expect(writeInventoryReport(endless, { query: QUERY, render, pageSize: 10, concurrency: 1, now: NOW, output })).rejects.toThrow(
      'the inventory is larger than the 64 MiB a snapshot may hold (scripts diff, verify and evidence read no more)',
    );
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('checkSnapshotSize', () => {
  it('counts UTF-8 bytes as written: exactly 64 MiB passes, one byte more is refused', () => {
    const cap = 64 * 1024 * 1024;
    expect(() => checkSnapshotSize('x'.repeat(cap))).not.toThrow();
    expect(() => checkSnapshotSize('x'.repeat(cap - 1) + 'é')).toThrow('the snapshot would be 64.0 MiB as written, more than the 64.0 MiB scripts diff, verify, evidence and --previous read back');
  });
});
