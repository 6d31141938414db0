// Which logs the DuckDB engine reads itself (docs/replay.md, "Engines"): a plain NDJSON log
// (gzip too, once the js reader's guard has read it through: a decompression bomb or damaged
// data is refused as the js reader refuses it), and a Parquet file whose columns the js
// reader's plan reads as strings, integers or maps of strings (parquet-source.ts). Anything
// else, and any file mapped to production's decisions, is read by the js reader.
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import type { LogSource } from '../replay/duckdb/class-query.js';
import type { DuckDbDecider } from '../replay/duckdb/decider.js';
import { columnAt, parquetSource } from '../replay/duckdb/parquet-source.js';
import type { ValueReader } from '../replay/duckdb/value-classes.js';
import { gzipGuard } from '../replay/lines.js';
import { isParquetMagic } from '../replay/parquet-magic.js';
import { formatOf } from '../replay/parsers.js';
import type { TrafficReadOptions } from '../replay/read.js';

/** How DuckDB reads the file, or why the js reader must. */
export async function nativeSource(file: string, path: string, options: TrafficReadOptions, decider: DuckDbDecider): Promise<{ source: LogSource; reader?: ValueReader } | string> {
  if (options.decision !== undefined) return 'replay.decision maps production\'s decisions';
  const head = await firstLine(path, file);
  if (head === undefined) return 'empty, or gzip the js reader refuses';
  const format = head.parquet ? formatOf(file, '', options.format ?? 'parquet') : formatOf(file, head.line, options.format);
  if (format === 'parquet') return head.gzip ? 'gzip, not Parquet' : parquetFile(file, path, options, decider);
  if (options.fields !== undefined) return 'replay.fields maps its fields';
  if (format !== 'ndjson') return `its format is ${format ?? 'unknown'}, not plain NDJSON`;
  return { source: { kind: 'ndjson', gzip: head.gzip } };
}

async function parquetFile(file: string, path: string, options: TrafficReadOptions, decider: DuckDbDecider): Promise<{ source: LogSource; reader: ValueReader } | string> {
  try {
    // Loaded for a Parquet file only, as by the js reader; its errors are the js reader's to give.
    const { parquetPlan } = await import('../replay/parquet.js');
    const plan = await parquetPlan(file, path, options);
    const types = await decider.parquetTypes(path, plan.fields.map((column) => columnAt(column.keys)));
    if (types === undefined) return 'a Parquet file without rows';
    const source = parquetSource(plan, (column) => types[plan.fields.indexOf(column)] ?? '');
    return source;
  } catch (error) {
    return `its plan could not be made (${(error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''})`;
  }
}

/**
 * The first non-blank line, and whether the file is gzip. A gzip file is read through once by
 * the js reader's guard first: a decompression bomb or damaged data is refused as by the js reader.
 */
async function firstLine(path: string, file: string): Promise<{ line: string; gzip: boolean; parquet: boolean } | undefined> {
  const source = createReadStream(path);
  let first: string | undefined;
  let expanded = 0;
  try {
    const chunks = source[Symbol.asyncIterator]();
    const opening = (await chunks.next()).value as Buffer | undefined;
    if (opening === undefined) return undefined;
    const gzip = opening[0] === 0x1f && opening[1] === 0x8b;
    // A Parquet file is no text: its plan and its footer's checks are the js reader's (parquetFile).
    if (isParquetMagic(opening)) return { line: '', gzip: false, parquet: true };
    if (!gzip) first = opening.toString('utf8', 0, Math.min(opening.length, 1 << 16));
    source.destroy();
    if (gzip) {
      const stream = createReadStream(path);
      const guard = gzipGuard(file, () => stream.bytesRead);
      // Gunzip's output in chunks of 1 MB: at its 16 KB, passing the chunks on cost twice the inflating itself.
      for await (const chunk of stream.pipe(createGunzip({ chunkSize: 1 << 20 }))) {
        const text = chunk as Buffer;
        if (first === undefined || first.length < 1 << 16) first = (first ?? '') + text.toString('utf8', 0, Math.min(text.length, 1 << 16));
        expanded += text.length;
        guard(expanded);
      }
    }
    const line = (first ?? '').split('\n').find((text) => text.trim() !== '');
    return line === undefined ? undefined : { line: line.replace(/\r$/, ''), gzip, parquet: false };
  } catch {
    return undefined;
  } finally {
    source.destroy();
  }
}

