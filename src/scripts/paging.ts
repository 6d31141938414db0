// The small parts of paging through the script inventory (fetch.ts): record ranges handed out
// one at a time, the counts the pages reported, and which page a failure came from.
import { RemoteError } from '../errors.js';
import { definedFields } from '../defined.js';

/** Records [start, end) of the inventory, by their offset. */
export interface Range {
  start: number;
  end: number;
}

/** Splits [start, end) into consecutive ranges of at most `size` records, one at a time. */
export function* splitRange(range: Range, size: number): Generator<Range, void, undefined> {
  for (let start = range.start; start < range.end; start += size) {
    yield { start, end: Math.min(start + size, range.end) };
  }
}

/** The `paging.count` of every page, kept as first, last, largest and the distinct values in order. */
export class CountLog {
  first = 0;
  last = 0;
  largest = 0;
  /** In order of first appearance; one value unless records were added or removed while paging. */
  readonly distinct = new Set<number>();

  add(count: number): void {
    if (this.distinct.size === 0) this.first = count;
    this.last = count;
    this.largest = Math.max(this.largest, count);
    this.distinct.add(count);
  }
}

/**
 * Makes a remote failure say which page failed, so "500 after retries" says where. The
 * scripts client already names the page in its operation; other page sources may not.
 */
export function withPageInfo(err: unknown, skip: number, take: number): unknown {
  if (!(err instanceof RemoteError) || /\bskip[ =]\d+/.test(err.message)) return err;
  return new RemoteError(`${err.message} (page skip=${skip} take=${take})`, {
    operation: `${err.operation} (page skip=${skip} take=${take})`,
    ...definedFields({ status: err.status }),
    cause: err,
  });
}
