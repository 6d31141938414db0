// Parquet logs (docs/replay.md, "Parquet"): a warehouse's export of requests, read in pure
// JavaScript (hyparquet) one row group at a time, so memory follows the largest row group and
// not the file. The file is checked before any row is read: its PAR1 magic bytes at both ends,
// its footer, its columns' types (parquet-columns.ts) and its compression codecs; a problem is
// an error naming the file, the row group and the column, never a report of what was read.
import { open, type FileHandle } from 'node:fs/promises';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { parquetMetadataAsync, parquetReadObjects, parquetSchema, snappyUncompress, type AsyncBuffer, type FileMetaData } from 'hyparquet';
import { UserError } from '../errors.js';
import type { LineResult } from './formats.js';
import { planColumns, type ColumnPlan } from './parquet-columns.js';
import { isParquetMagic, PARQUET_MAGIC } from './parquet-magic.js';
import type { ParserOptions } from './parsers.js';


/** Rows handed on at a time (a row group is decoded whole, and handed on in batches of these). */
const BATCH_ROWS = 1000;

/**
 * The largest page decompressed (its header's size, which the decoder allocates before it
 * reads a byte): writers make pages of about 1 MiB; a damaged or hostile header must not make
 * replay allocate gigabytes.
 */
export const MAX_PAGE_BYTES = 256 * 1024 * 1024;

/** Codecs read without another package: Node's zlib (never past the page's stated size), hyparquet's own Snappy. */
type Decompress = (input: Uint8Array, outputLength: number) => Uint8Array;
const BUILT_IN: Record<string, Decompress> = {
  SNAPPY: (input, length) => {
    const page = new Uint8Array(length);
    snappyUncompress(input, page);
    return page;
  },
  GZIP: (input, length) => gunzipSync(input, { maxOutputLength: Math.max(length, 1) }),
  BROTLI: (input, length) => brotliDecompressSync(input, { maxOutputLength: Math.max(length, 1) }),
};
/** Codecs of hyparquet-compressors, loaded only for a file that uses one. */
const LOADED = ['ZSTD', 'LZ4', 'LZ4_RAW'];
const SUPPORTED = ['UNCOMPRESSED', ...Object.keys(BUILT_IN), ...LOADED];

/** One row of a Parquet file as a request (its "line" is the row's number in the file, 1 for the first). */
interface ParquetRow {
  line: number;
  result: LineResult;
}

/** How the js reader reads a Parquet file's columns (the file checked as readParquetRows checks it, no row read). */
export async function parquetPlan(file: string, path: string, options: ParserOptions): Promise<ColumnPlan> {
  const handle = await open(path, 'r');
  try {
    const metadata = await footer(file, await fileBuffer(file, handle));
    const plan = planColumns(file, parquetSchema(metadata), options);
    checkRowGroups(file, metadata);
    await compressorsFor(file, metadata, plan);
    return plan;
  } finally {
    await handle.close();
  }
}

/**
 * The rows of a Parquet file in batches, and after each row group the bytes read so far. With
 * `only`, just those rows (by number), and no row group decoded that holds none of them.
 */
export async function* readParquetRows(file: string, path: string, options: ParserOptions, onBytes?: (bytes: number) => void, only?: ReadonlySet<number>): AsyncGenerator<ParquetRow[]> {
  const handle = await open(path, 'r');
  try {
    const buffer = await fileBuffer(file, handle);
    const metadata = await footer(file, buffer);
    const plan = planColumns(file, parquetSchema(metadata), options);
    checkRowGroups(file, metadata);
    const compressors = await compressorsFor(file, metadata, plan);
    let rowStart = 0;
    for (const [index, group] of metadata.row_groups.entries()) {
      const rowEnd = rowStart + Number(group.num_rows);
      if (only !== undefined && ![...only].some((row) => row > rowStart && row <= rowEnd)) {
        rowStart = rowEnd;
        continue;
      }
      const rows = await rowGroup(file, { buffer, metadata, plan, compressors }, index, rowStart, rowEnd);
      for (let from = 0; from < rowEnd - rowStart; from += BATCH_ROWS) {
        const count = Math.min(BATCH_ROWS, rowEnd - rowStart - from);
        const lines = Array.from({ length: count }, (_, offset) => rowStart + from + offset + 1).filter((line) => only === undefined || only.has(line));
        yield lines.map((line) => ({ line, result: rowResult(rows?.[line - rowStart - 1] ?? {}, plan) }));
      }
      rowStart = rowEnd;
      onBytes?.(groupEnd(group));
    }
    // The footer was read first: the whole file is read once the last row group is.
    onBytes?.(buffer.byteLength);
  } finally {
    await handle.close();
  }
}

function rowResult(row: Record<string, unknown>, plan: ColumnPlan): LineResult {
  const prepared = plan.prepare(row);
  if ('skip' in prepared) return prepared;
  const result = plan.read(prepared.record);
  // A row none of whose columns is a field names every column of the file, read or not.
  if ('request' in result && result.keys !== undefined) return { ...result, keys: plan.names };
  return result;
}

/** The file as hyparquet's random-access buffer, once its magic bytes are checked at both ends. */
async function fileBuffer(file: string, handle: FileHandle): Promise<AsyncBuffer> {
  const { size } = await handle.stat();
  const read = async (start: number, end: number): Promise<ArrayBuffer> => {
    // A damaged footer may name offsets past the end: never more is allocated than the file holds.
    const bytes = Buffer.alloc(Math.max(0, Math.min(end, size) - start));
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, start);
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytesRead);
  };
  const head = Buffer.from(await read(0, Math.min(4, size)));
  if (!isParquetMagic(head)) {
    const gzip = head[0] === 0x1f && head[1] === 0x8b;
    throw new UserError(`${file}: not a Parquet file: it does not start with the PAR1 magic bytes${gzip ? ' (it is gzip data)' : ''}`, [
      gzip ? 'Parquet compresses its own pages: replay the file as it was exported, not gzip-compressed.' : 'Name its format with --log-format, or check the file.',
    ]);
  }
  const tail = Buffer.from(await read(Math.max(0, size - 4), size));
  if (size < 12 || tail.toString('latin1') !== PARQUET_MAGIC) {
    throw new UserError(`${file}: the Parquet file is cut short or damaged: it starts with PAR1 but does not end with it, so its footer (schema and row groups) is missing`, [
      'Copy or export the file again: a Parquet file is readable only whole.',
    ]);
  }
  return { byteLength: size, slice: (start, end) => read(start, end ?? size) };
}

async function footer(file: string, buffer: AsyncBuffer): Promise<FileMetaData> {
  try {
    return await parquetMetadataAsync(buffer);
  } catch (error) {
    throw new UserError(`${file}: the Parquet footer (schema and row groups) cannot be read: ${messageOf(error)}`, ['Copy or export the file again: it is damaged.']);
  }
}

/** The decompressors the columns read need; a codec replay cannot read is an error naming its row group and column. */
async function compressorsFor(file: string, metadata: FileMetaData, plan: ColumnPlan): Promise<Record<string, Decompress>> {
  const used = new Set<string>();
  for (const [index, group] of metadata.row_groups.entries()) {
    for (const chunk of group.columns) {
      const column = chunk.meta_data?.path_in_schema.join('.') ?? '';
      if (chunk.meta_data === undefined || !plan.columns.includes(chunk.meta_data.path_in_schema[0] ?? '')) continue;
      const codec = String(chunk.meta_data.codec);
      if (!SUPPORTED.includes(codec)) {
        throw new UserError(`${file}: row group ${index + 1}, column ${JSON.stringify(column)}: compressed with ${codec}, which replay cannot read (it reads ${SUPPORTED.join(', ')})`, [
          'Export the file again with another codec (Snappy, the usual default, or ZSTD).',
        ]);
      }
      used.add(codec);
    }
  }
  if (!LOADED.some((codec) => used.has(codec))) return withPageLimit(BUILT_IN);
  const { decompressZstd, decompressLz4, decompressLz4Raw } = await import('hyparquet-compressors');
  return withPageLimit({ ...BUILT_IN, ZSTD: (input) => decompressZstd(input), LZ4: decompressLz4, LZ4_RAW: decompressLz4Raw });
}

export function withPageLimit(decompressors: Record<string, Decompress>): Record<string, Decompress> {
  return Object.fromEntries(Object.entries(decompressors).map(([codec, decompress]) => [codec, (input: Uint8Array, length: number) => {
    if (length > MAX_PAGE_BYTES) throw new Error(`a page claims ${length} bytes decompressed, more than replay decompresses (${MAX_PAGE_BYTES})`);
    return decompress(input, length);
  }]));
}

interface Reading {
  buffer: AsyncBuffer;
  metadata: FileMetaData;
  plan: ColumnPlan;
  compressors: Record<string, Decompress>;
}

/**
 * One row group's rows (the planned columns only), or undefined when no column is read (a file
 * whose columns map to no field: its rows are counted, and reported unmapped, without decoding
 * any); a failure names the row group, its rows and the column that fails.
 */
async function rowGroup(file: string, reading: Reading, index: number, rowStart: number, rowEnd: number): Promise<Record<string, unknown>[] | undefined> {
  const { buffer, metadata, plan, compressors } = reading;
  if (plan.columns.length === 0) return undefined;
  const read = (columns: string[]) => parquetReadObjects({ file: buffer, metadata, rowStart, rowEnd, columns, compressors, utf8: true });
  try {
    const rows = await read(plan.columns);
    if (rows.length !== rowEnd - rowStart) throw new Error(`${rows.length} rows decoded where the footer says ${rowEnd - rowStart}`);
    return rows;
  } catch (error) {
    const where = `${file}: row group ${index + 1} (rows ${rowStart + 1}–${rowEnd})`;
    // Which column fails: each read alone, only now that one has.
    for (const column of plan.columns) {
      const failure = await read([column]).then(() => undefined, (columnError: unknown) => columnError);
      if (failure !== undefined) throw new UserError(`${where}, column ${JSON.stringify(column)}: cannot be read: ${messageOf(failure)}`, ['Copy or export the file again: it is damaged.']);
    }
    throw new UserError(`${where}: cannot be read: ${messageOf(error)}`, ['Copy or export the file again: it is damaged.']);
  }
}

/**
 * The most rows of one row group replay decodes at once: memory follows the largest row group
 * (some hundreds of bytes a row), and writers make groups of 100,000 to a few million rows.
 */
export const MAX_GROUP_ROWS = 10_000_000;

/** A footer claiming a row group larger than replay holds (or no number of rows) is refused before any row is read. */
export function checkRowGroups(file: string, metadata: FileMetaData): void {
  for (const [index, group] of metadata.row_groups.entries()) {
    const rows = Number(group.num_rows);
    if (Number.isSafeInteger(rows) && rows >= 0 && rows <= MAX_GROUP_ROWS) continue;
    throw new UserError(`${file}: row group ${index + 1} claims ${String(group.num_rows)} rows, more than replay decodes at once (${MAX_GROUP_ROWS.toLocaleString('en-US')})`, [
      'Write the file with smaller row groups (every Parquet writer has the setting), or check the file: it may be damaged.',
    ]);
  }
}

/** The byte just past a row group's column chunks: how far the file has been read. */
function groupEnd(group: FileMetaData['row_groups'][number]): number {
  let end = 0;
  for (const { meta_data: meta } of group.columns) {
    if (meta === undefined) continue;
    const start = meta.dictionary_page_offset ?? meta.data_page_offset;
    end = Math.max(end, Number(start) + Number(meta.total_compressed_size));
  }
  return end;
}

/** A library's message, on one line and short (it may quote bytes of the file). */
function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, ' ').slice(0, 200);
}
