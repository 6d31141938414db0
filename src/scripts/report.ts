// `scripts report`: fetch every page, mark records against the policy, write the chosen format.
// Streamed formats (ndjson, csv) are written page by page; json and markdown are built from
// the finished, sorted snapshot. Either way a failure leaves no complete-looking file.
import { REPORT_RENDERERS, type ReportFormat } from '../render/scripts/index.js';
import { fetchInventory, type FetchSummary, type PageSource } from './fetch.js';
import type { InventoryQuery, ScriptRecord, SnapshotRecord } from './model.js';
import type { ReportOutput } from './output.js';
import { compilePolicy, markRecord, type Policy } from './policy-match.js';
import { buildSnapshot } from './snapshot.js';

export interface ReportOptions {
  query: InventoryQuery;
  format: ReportFormat;
  pageSize: number;
  concurrency: number;
  /** When the report was taken; also the instant policy expiry is judged at. */
  now: number;
  policy?: Policy;
  output: ReportOutput;
  onProgress?(progress: { done: number; total: number }): void;
}

export interface ReportResult extends FetchSummary {
  /** Records the policy did not approve; undefined without a policy. */
  unapproved?: number;
}

export async function writeReport(source: PageSource, options: ReportOptions): Promise<ReportResult> {
  const mark = markerFor(options.policy, options.now);
  let unapproved = 0;
  const marked = (records: ScriptRecord[]): SnapshotRecord[] =>
    records.map((record) => {
      const result = mark(record);
      if (result.approved === false) unapproved += 1;
      return result;
    });
  const fetchOptions = {
    pageSize: options.pageSize,
    concurrency: options.concurrency,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  };
  const renderer = REPORT_RENDERERS[options.format];
  try {
    let summary: FetchSummary;
    if (renderer.streamed) {
      const sink = renderer.open(options.output.emit);
      summary = await fetchInventory(source, options.query, { ...fetchOptions, onRecords: (records) => sink.write(marked(records)) });
      await sink.end();
    } else {
      const records: SnapshotRecord[] = [];
      summary = await fetchInventory(source, options.query, { ...fetchOptions, onRecords: (page) => void records.push(...marked(page)) });
      const snapshot = buildSnapshot({
        query: options.query,
        takenAt: options.now,
        records,
        warnings: summary.warnings,
        ...(options.policy ? { policyFile: options.policy.file } : {}),
      });
      await options.output.emit(renderer.render(snapshot));
    }
    await options.output.commit();
    return { ...summary, ...(options.policy ? { unapproved } : {}) };
  } catch (err) {
    await options.output.abort();
    throw err;
  }
}

function markerFor(policy: Policy | undefined, now: number): (record: ScriptRecord) => SnapshotRecord {
  if (!policy) return (record) => record;
  const matcher = compilePolicy(policy, now);
  return (record) => markRecord(record, matcher);
}
