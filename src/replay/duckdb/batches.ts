// Batches of requests for the DuckDB engine (decider.ts): each request one NDJSON line with its
// row number, header names lower-case (the first spelling of a name wins, as the evaluator reads
// it); the batch's examples kept beside it to name the first requests of each group.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestRequest } from '../../evaluate/request.js';
import type { ReplayExample } from '../tally.js';
import type { Decision } from '../../evaluate/evaluate.js';
import type { LiveRule } from '../../semantics/model.js';
import type { ReadRequest } from '../account.js';

/** Requests per batch: enough that a query's fixed cost is small, few enough that memory stays small. */
export const BATCH_REQUESTS = 20_000;

/**
 * A request as one line of a batch file; undefined when DuckDB would not read its texts as
 * JavaScript does, or when one holds a character beyond U+FFFF (JavaScript's patterns without
 * `u` read it as two code units, RE2 as one): such a request is decided in JavaScript, so the
 * SQL needs no per-leaf guard for it (Fallbacks.rowsWithinBmp).
 */
export function batchLine(row: number, request: TestRequest): string | undefined {
  const line: Record<string, unknown> = { r: row };
  for (const [field, value] of Object.entries(request)) {
    if (typeof value === 'string') {
      if (!readsAlike(value)) return undefined;
      line[field] = value;
    } else if (value !== undefined) {
      // No prototype: a parameter called "__proto__" is a name like any other.
      const map = Object.create(null) as Record<string, string>;
      for (const [name, text] of Object.entries(value as Record<string, string>)) {
        if (!readsAlike(name) || !readsAlike(text)) return undefined;
        const key = field === 'headers' ? name.toLowerCase() : name;
        if (map[key] === undefined) map[key] = text;
      }
      line[field] = map;
    }
  }
  return JSON.stringify(line);
}

/** No surrogate code unit (a lone one is no UTF-8; a pair is a character beyond U+FFFF) and no NUL, which ends some readers' texts. */
function readsAlike(text: string): boolean {
  return !SURROGATE.test(text) && !text.includes('\u0000');
}

const SURROGATE = /[\ud800-\udfff]/;

/** One batch being filled: its lines, its examples by row, and the rows DuckDB cannot take. */
export class Batch {
  readonly lines: string[] = [];
  readonly examples: ReplayExample[] = [];
  /** Rows decided in JavaScript, with each set's decision number. */
  readonly decidedHere: { row: number; codes: number[] }[] = [];
  /** Rows accounted one by one (accountDecided), with their decisions; none when the line carries no request field. */
  readonly own: { row: number; read: ReadRequest; decisions?: Decision<LiveRule>[] }[] = [];

  get size(): number {
    return this.examples.length;
  }
}

/** A private directory for the batch files, removed with everything in it by `remove`. */
export async function batchDirectory(): Promise<{ file(): string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'botrules-replay-'));
  let files = 0;
  return { file: () => join(dir, `batch-${files++}.ndjson`), remove: () => rm(dir, { recursive: true, force: true }) };
}

export async function writeBatch(file: string, batch: Batch): Promise<void> {
  await writeFile(file, batch.lines.join('\n'), { mode: 0o600 });
}
