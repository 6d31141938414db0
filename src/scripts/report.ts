// `scripts report`: fetch every page, mark records against the policy, and hand the result
// to a renderer as a model it can read in either of two ways: page by page as pages arrive
// (ndjson, csv: memory stays flat) or as the finished, sorted snapshot (json, markdown).
// Either way a failure leaves no complete-looking file. The renderer comes in as a plain
// function, so this folder does not depend on the renderers.
import { UserError } from '../errors.js';
import { MAX_JSON_FILE_BYTES } from '../io/capped-read.js';
import { fetchInventory, type FetchSummary, type PageSource } from './fetch.js';
import type { InventoryQuery, ScriptRecord, Snapshot, SnapshotRecord } from './model.js';
import type { ReportOutput } from './output.js';
import { compilePolicy, entryUsage, markRecord, unmatchedWarning, type Policy } from './policy-match.js';
import { sealSnapshot } from './chain.js';
import { buildSnapshot } from './snapshot.js';
import { definedFields } from '../defined.js';

/** The inventory as a renderer reads it; a renderer calls exactly one of the two, once. The snapshot is sealed into the chain (src/scripts/chain.ts). */
export interface InventoryModel {
  /** Fetches every page; each page's records reach `onPage` as they arrive, and a slow `onPage` slows the fetch. */
  stream(onPage: (records: readonly SnapshotRecord[]) => void | Promise<void>): Promise<void>;
  /** Fetches every page and resolves to the snapshot, records sorted by key. */
  snapshot(): Promise<Snapshot>;
}

export interface ReportOptions {
  query: InventoryQuery;
  pageSize: number;
  concurrency: number;
  /** When the report was taken; also the instant policy expiry is judged at. */
  now: number;
  policy?: Policy;
  /** The snapshot this one links to in the chain; none: this one starts a chain. */
  previous?: Snapshot;
  output: ReportOutput;
  /** Renders the model into the output (the chosen format's renderer). */
  render(model: InventoryModel): Promise<void>;
  onProgress?(progress: { done: number; total: number }): void;
}

export interface ReportResult extends FetchSummary {
  /** Records the policy did not approve; undefined without a policy. */
  unapproved?: number;
  /** Warnings naming the policy entries that matched no record of the report. */
  unmatchedEntries?: string[];
  /** The sealed snapshot's own digest (`chain.sha256`), when the renderer read the snapshot. */
  chainHead?: string;
}

export async function writeInventoryReport(source: PageSource, options: ReportOptions): Promise<ReportResult> {
  const mark = markerFor(options.policy, options.now);
  const usage = options.policy ? entryUsage(options.policy) : undefined;
  let unapproved = 0;
  const marked = (records: ScriptRecord[]): SnapshotRecord[] =>
    records.map((record) => {
      usage?.note(record);
      const result = mark(record);
      if (result.approved === false) unapproved += 1;
      return result;
    });
  let summary: FetchSummary | undefined;
  let chainHead: string | undefined;
  const fetchAll = async (onRecords: (records: ScriptRecord[]) => void | Promise<void>): Promise<FetchSummary> => {
    summary = await fetchInventory(source, options.query, {
      pageSize: options.pageSize,
      concurrency: options.concurrency,
      onRecords,
      ...definedFields({ onProgress: options.onProgress }),
    });
    return summary;
  };
  const model: InventoryModel = {
    stream: async (onPage) => {
      await fetchAll((records) => onPage(marked(records)));
    },
    snapshot: async () => {
      const records: SnapshotRecord[] = [];
      const held = new HeldBytes();
      const fetched = await fetchAll((page) => {
        const kept = marked(page);
        held.add(kept);
        records.push(...kept);
      });
      const snapshot = buildSnapshot({
        query: options.query,
        takenAt: options.now,
        records,
        warnings: fetched.warnings,
        ...definedFields({ policyFile: options.policy?.file }),
      });
      const sealed = sealSnapshot(snapshot, options.previous ?? null);
      chainHead = sealed.chain?.sha256;
      return sealed;
    },
  };
  try {
    await options.render(model);
    if (summary === undefined) throw new Error('the report renderer never read the inventory');
    await options.output.commit();
    const unmatchedEntries = usage?.unmatched().map((entry) => unmatchedWarning(entry, 'in this report'));
    return {
      ...summary,
      ...definedFields({ unapproved: options.policy && unapproved, unmatchedEntries, chainHead }),
    };
  } catch (err) {
    await options.output.abort();
    throw err;
  }
}

/**
 * A snapshot (json, markdown) is sorted and sealed, so it holds every record in memory; what it
 * holds is capped at the size `scripts diff`, `verify` and `evidence` read back
 * (src/io/capped-read.ts), so a gateway that answers endlessly cannot exhaust the heap. The
 * records' compact size is less than what the file takes (indented, escaped): the json file
 * itself is measured as written before a byte of it is (checkSnapshotSize). ndjson and csv stream.
 */
class HeldBytes {
  private total = 0;

  add(records: readonly SnapshotRecord[]): void {
    for (const record of records) this.total += JSON.stringify(record).length + 1;
    if (this.total > MAX_JSON_FILE_BYTES) {
      throw new UserError(`the inventory is larger than the ${MAX_JSON_FILE_BYTES / (1024 * 1024)} MiB a snapshot may hold (scripts diff, verify and evidence read no more)`, [
        'Narrow the window (--from, --to) or the --app-id / --tld lists, or write --format ndjson or csv, which stream.',
        'Nothing was written.',
      ]);
    }
  }
}

function markerFor(policy: Policy | undefined, now: number): (record: ScriptRecord) => SnapshotRecord {
  if (!policy) return (record) => record;
  const matcher = compilePolicy(policy, now);
  return (record) => markRecord(record, matcher);
}
