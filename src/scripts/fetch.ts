// Paging through the whole inventory (docs/behaviour.md, "Script inventory"). The tool pages with skip/take itself: one
// first page tells it `count`, then the rest is split into ranges fetched concurrently.
// A server that caps `take` returns fewer records than asked; each range then keeps asking
// from where the last answer ended, so nothing is lost, and later ranges use the observed cap.
// Memory does not grow with the inventory beyond the set of identities delivered, each held in
// at most 46 characters (a long one by its digest), and at most MAX_RECORDS of them: ranges are
// handed out one at a time to `concurrency` workers, not planned as one promise each, and only
// the counts the server reported that differ are remembered.
import { RemoteError } from '../errors.js';
import type { InventoryQuery, ScriptQuery, ScriptRecord, ScriptsPage } from './model.js';
import { recordIdentity, rememberedIdentity } from './records.js';
import { plural } from '../plural.js';
import { CountLog, splitRange, withPageInfo, type Range } from './paging.js';
import { definedFields } from '../defined.js';

/** One page request; in the CLI, `ScriptsApi.listScripts` (which retries on its own). */
export type PageSource = (query: ScriptQuery) => Promise<ScriptsPage>;

/**
 * The most pages one export asks for (docs/behaviour.md, "Script inventory"): a million
 * records at the default page size. A server whose `paging.count` says more, or whose
 * answers keep paging beyond it, is refused rather than followed forever.
 */
const MAX_PAGES = 20_000;

/**
 * The most distinct records one export takes (a million, as MAX_PAGES at the default page
 * size): every format remembers each identity to drop duplicates, so a gateway that pages
 * without end is refused here, before the identities outgrow memory (about 80 MB at the cap).
 */
const MAX_RECORDS = 1_000_000;

interface FetchOptions {
  pageSize: number;
  /** MAX_PAGES unless given. */
  maxPages?: number;
  /** MAX_RECORDS unless given. */
  maxRecords?: number;
  concurrency: number;
  /** Receives each page's records not seen before, as pages arrive. Calls never overlap. */
  onRecords(records: ScriptRecord[]): void | Promise<void>;
  /** Requests done out of requests planned so far (the total grows if a cap splits pages). */
  onProgress?(progress: { done: number; total: number }): void;
}

export interface FetchSummary {
  /** Unique records delivered. */
  count: number;
  /** `paging.count` of the first page. */
  reportedCount: number;
  requests: number;
  /** Records dropped because their identity had been delivered already. */
  duplicates: number;
  /** The largest `take` the server honoured, when it returned fewer records than asked for. */
  takeCap?: number;
  /** Things the reader of the report must know: the set changed while paging, duplicates. */
  warnings: string[];
}

/** Fetches every record of the window; throws the first failure after in-flight pages settle. */
export async function fetchInventory(source: PageSource, query: InventoryQuery, options: FetchOptions): Promise<FetchSummary> {
  const pager = new Pager(source, query, options);
  return pager.run();
}

class Pager {
  private take: number;
  private takeCap: number | undefined;
  private readonly counts = new CountLog();
  /** Identities delivered; a Set<string> (bench/README.md, "Script inventory": within 1.1× the peak RSS of an off-heap set at 100,000 records). */
  private readonly seen = new Set<string>();
  private duplicates = 0;
  private delivered = 0;
  private requests = 0;
  private planned = 0;
  private stalledAt: number | undefined;
  private failed = false;
  private delivery: Promise<void> = Promise.resolve();

  constructor(private readonly source: PageSource, private readonly query: InventoryQuery, private readonly options: FetchOptions) {
    this.take = options.pageSize;
  }

  async run(): Promise<FetchSummary> {
    this.planned = 1;
    const first = await this.fetchPage(0, this.take);
    const covered = this.absorbFirst(first);
    if (Math.ceil(this.counts.largest / this.take) > this.maxPages) throw this.tooManyPages(this.counts.largest);
    const workers = Math.max(1, this.options.concurrency);
    let plannedEnd = covered;
    // The count may grow while paging: keep planning until the ranges reach the largest count seen.
    while (this.counts.largest > plannedEnd && this.stalledAt === undefined) {
      const round = { start: plannedEnd, end: this.counts.largest };
      const ranges = splitRange(round, this.take);
      plannedEnd = round.end;
      this.planned += Math.ceil((round.end - round.start) / this.take);
      this.reportProgress();
      await this.settleAll(Array.from({ length: workers }, () => this.work(ranges)));
    }
    await this.delivery;
    return this.summary();
  }

  /** One worker: takes the next range until none is left or a page failed. */
  private async work(ranges: Iterator<Range>): Promise<void> {
    for (let next = ranges.next(); !next.done && !this.failed; next = ranges.next()) {
      await this.fetchRange(next.value);
    }
  }

  /** The first page fixes the cap when it is short although more records exist; returns how far it reached. */
  private absorbFirst(page: ScriptsPage): number {
    const got = page.data.length;
    const expected = Math.min(this.take, page.paging.count);
    if (got > 0 && got < expected) this.lowerTake(got);
    if (got === 0 && expected > 0) this.stalledAt = 0;
    return got;
  }

  private async fetchRange(range: Range): Promise<void> {
    let position = range.start;
    let first = true;
    while (position < range.end && !this.failed) {
      if (!first) {
        this.planned += 1;
        this.reportProgress();
      }
      first = false;
      const ask = Math.min(this.take, range.end - position);
      const page = await this.fetchPage(position, ask);
      const got = page.data.length;
      if (got >= ask) {
        position += got;
        continue;
      }
      // Fewer than asked: either the set shrank (the page's own count says so) or a cap.
      const remaining = page.paging.count - position;
      if (got >= remaining) return;
      if (got === 0) {
        this.stalledAt = position;
        return;
      }
      this.lowerTake(got);
      position += got;
    }
  }

  private get maxPages(): number {
    return this.options.maxPages ?? MAX_PAGES;
  }

  private get maxRecords(): number {
    return this.options.maxRecords ?? MAX_RECORDS;
  }

  private tooManyRecords(): RemoteError {
    this.failed = true;
    return new RemoteError(
      `the script inventory sent more than ${this.maxRecords} distinct records, the most botrules takes in one export; ` +
        'nothing more was requested and no --out file is kept. Narrow the window (--from, --to, --app-id, --tld)',
      { operation: 'listing scripts' },
    );
  }

  private tooManyPages(count: number): RemoteError {
    this.failed = true;
    return new RemoteError(
      `the script inventory reports ${count} records: at ${this.take} per page that is more than ${this.maxPages} pages, ` +
        'the most botrules asks for in one export; nothing more was requested. ' +
        'Narrow the window (--from, --to, --app-id, --tld) or raise --page-size',
      { operation: 'listing scripts' },
    );
  }

  private async fetchPage(skip: number, take: number): Promise<ScriptsPage> {
    if (this.requests >= this.maxPages) throw this.tooManyPages(this.counts.largest);
    // Spelled out: V8 gives `{ ...query, skip, take }` a new hidden class on every call.
    const { appId, tld, from, to } = this.query;
    const request: ScriptQuery = { appId, tld, from, to, skip, take };
    let page: ScriptsPage;
    try {
      page = await this.source(request);
    } catch (err) {
      this.failed = true;
      throw withPageInfo(err, skip, take);
    }
    this.requests += 1;
    this.counts.add(page.paging.count);
    try {
      await this.deliver(page.data);
    } catch (err) {
      // The output failed (e.g. the disk is full): stop asking for more pages.
      this.failed = true;
      throw err;
    }
    this.reportProgress();
    return page;
  }

  /** De-duplicates and hands records on, one page at a time, in arrival order. */
  private deliver(records: ScriptRecord[]): Promise<void> {
    const fresh: ScriptRecord[] = [];
    for (const record of records) {
      const identity = rememberedIdentity(recordIdentity(record));
      if (this.seen.has(identity)) {
        this.duplicates += 1;
      } else {
        if (this.seen.size >= this.maxRecords) return Promise.reject(this.tooManyRecords());
        this.seen.add(identity);
        fresh.push(record);
      }
    }
    this.delivered += fresh.length;
    this.delivery = this.delivery.then(() => (fresh.length > 0 && !this.failed ? this.options.onRecords(fresh) : undefined));
    return this.delivery;
  }

  /** Waits for every task (so nothing runs after a failure is reported), then throws the first error. */
  private async settleAll(tasks: Promise<void>[]): Promise<void> {
    const results = await Promise.allSettled(tasks);
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) throw failure.reason;
  }

  private lowerTake(observed: number): void {
    if (observed < this.take) this.take = observed;
    this.takeCap = this.take;
  }

  private reportProgress(): void {
    this.options.onProgress?.({ done: this.requests, total: Math.max(this.planned, this.requests) });
  }

  private summary(): FetchSummary {
    const warnings: string[] = [];
    const { first, last, distinct } = this.counts;
    if (distinct.size > 1) {
      warnings.push(
        `the inventory changed while paging: the server's count went from ${first} to ${last} ` +
          `(seen: ${[...distinct].join(', ')}); records may be missing, run the report again for a consistent snapshot`,
      );
    }
    if (this.duplicates > 0) {
      warnings.push(`${plural(this.duplicates, 'duplicate record')} (same key on more than one page) dropped`);
    }
    if (this.stalledAt !== undefined) {
      warnings.push(`the server returned no records at skip ${this.stalledAt} although its count is ${this.counts.largest}; the export stops there`);
    }
    return {
      count: this.delivered,
      reportedCount: first,
      requests: this.requests,
      duplicates: this.duplicates,
      ...definedFields({ takeCap: this.takeCap }),
      warnings,
    };
  }
}
