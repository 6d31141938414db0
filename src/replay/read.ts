// Reading request logs as a stream (docs/replay.md, "Log formats"): files and directories in
// order, gzip detected by its magic bytes, each line parsed, redacted and handed on in batches,
// so memory stays flat however long the log is.
import { createReadStream, type ReadStream } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { UserError } from '../errors.js';
import { LOG_FORMATS, type FieldMapping, type LineResult, type LogFormat } from './formats.js';
import { normaliseRequest } from './coverage.js';
import { readHarEntries, type HarEntry } from './har.js';
import { formatOf, lineParser, type DecisionMapping, type LineParser } from './parsers.js';
import type { IpField } from './presets.js';
import { gzipGuard, LONG_LINE_REASON, streamLines, TOO_LONG } from './lines.js';
import { redactRequest, secretNameTest } from './redact.js';
import { isParquetMagic } from './parquet-magic.js';
import { UNREAD, wantedLines } from './wanted-lines.js';

/** One line of a log: a redacted request, or why it was skipped, with where it was. */
export interface LogLine {
  file: string;
  line: number;
  result: LineResult;
  /** With `only`: the line's number among the file's non-blank lines. */
  ordinal?: number;
}

/** How logs are read: the command's --log-format and the project's `replay` settings. */
export interface LogReading {
  /** A format for every file; else each file's is told from its name or its first line. */
  format?: LogFormat;
  /** Where NDJSON lines keep the request fields (botrules.yaml `replay.fields`). */
  fields?: FieldMapping;
  /** Header, query and custom parameter names masked beside the built-in ones (`replay.secretNames`). */
  secretNames?: readonly string[];
  /** Which Data Export address is the request's `ip` (`replay.ipField`; default client_ip). */
  ipField?: IpField;
  /** Where another JSON log records production's decision (`replay.decision`). */
  decision?: DecisionMapping;
}

export interface TrafficReadOptions extends LogReading {
  cwd: string;
  /** Called once each chunk's batch was taken, with the bytes of the file read so far (compressed bytes for gzip). */
  onBytes?: (bytesRead: number) => void;
  /**
   * Only these lines, by their number among the non-blank lines (1 for the first), parsed: the
   * others are counted, not parsed, and reading stops after the last (the DuckDB engine reads
   * again the few lines its report shows or that DuckDB cannot read as JavaScript does).
   */
  only?: ReadonlySet<number>;
}

/** Every regular file named, directories expanded (recursively, sorted), as paths to show. */
export async function logFiles(paths: readonly string[], cwd: string): Promise<string[]> {
  const files: string[] = [];
  for (const shown of paths) {
    const absolute = resolve(cwd, shown);
    const info = await stat(absolute).catch((error: NodeJS.ErrnoException) => {
      throw new UserError(`cannot read the log ${shown} (${error.code ?? 'unreadable'})`);
    });
    if (info.isDirectory()) files.push(...(await filesBelow(absolute)).map((file) => relative(cwd, file) || file));
    else if (info.isFile()) files.push(shown);
    else throw new UserError(`${shown} is not a file or a directory`);
  }
  return files;
}

async function filesBelow(dir: string): Promise<string[]> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...await filesBelow(path));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}

/** The lines of one log file, in batches (one per chunk read), parsed and redacted. */
export async function* readLog(file: string, options: TrafficReadOptions): AsyncGenerator<LogLine[]> {
  const path = resolve(options.cwd, file);
  const isSecret = secretNameTest(options.secretNames);
  const finish = (result: LineResult): LineResult => {
    if ('request' in result) redactRequest(normaliseRequest(result.request), isSecret);
    return result;
  };
  const seen = new ReadCheck(file, options.format);
  let parse: LineParser | undefined;
  let number = 0;
  let ordinal = 0;
  const last = options.only === undefined ? Infinity : Math.max(0, ...options.only);
  let source: ReadStream | undefined;
  try {
    // A few lines wanted: larger chunks (passing a chunk through the stream costs more than scanning it).
    const opened = await openLog(path, options.only === undefined ? undefined : 1 << 20);
    source = opened.file;
    const read = source;
    const guard = opened.gzip ? gzipGuard(file, () => read.bytesRead) : undefined;
    if (formatOf(file, '', options.format ?? (opened.parquet ? 'parquet' : undefined)) === 'parquet') {
      // Parquet is read by row group at its own offsets, not as a stream of lines.
      opened.file.destroy();
      yield* parquetBatches(file, path, options, finish, seen);
      return;
    }
    if (options.format === 'har' || formatOf(file, '', options.format) === 'har') {
      yield* harBatches(await readHarEntries(opened.lines, file), file, finish, seen);
      options.onBytes?.(read.bytesRead);
      return;
    }
    const lineOptions = guard === undefined ? {} : { onBytes: guard };
    // A few lines wanted: the others are found by their newlines, never decoded (wanted-lines.ts).
    const streamed = options.only === undefined ? streamLines(opened.lines, lineOptions) : wantedLines(opened.lines, options.only, lineOptions);
    for await (const lines of streamed) {
      const batch: LogLine[] = [];
      for (const raw of lines) {
        number += 1;
        if (raw === UNREAD) {
          ordinal += 1;
          continue;
        }
        // A line too long to read is skipped where it stands: never silent, never held whole.
        if (raw === TOO_LONG) {
          ordinal += 1;
          if (options.only === undefined || options.only.has(ordinal)) batch.push(seen.line({ file, line: number, result: { skip: LONG_LINE_REASON }, ...(options.only === undefined ? {} : { ordinal }) }));
          continue;
        }
        const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
        if (text.trim() === '') continue;
        ordinal += 1;
        if (parse === undefined) {
          const format = formatOf(file, text, options.format);
          if (format === undefined) throw new UserError(`cannot tell the format of ${file} from its first line: use --log-format ${LOG_FORMATS.slice(0, -1).join(', ')} or ${LOG_FORMATS.at(-1) ?? ''}`);
          if (format === 'har' || format === 'parquet') {
            // A HAR told from its opening line: read again, whole.
            yield* readLog(file, { ...options, format });
            return;
          }
          seen.format = format;
          parse = lineParser(file, format, options);
        }
        if (options.only !== undefined && !options.only.has(ordinal)) continue;
        const result = parse(text, number);
        if (result !== undefined) batch.push(seen.line({ file, line: number, result: finish(result), ...(options.only === undefined ? {} : { ordinal }) }));
        if (ordinal >= last) break;
      }
      yield batch;
      // After the consumer has taken the batch: progress counts what was decided.
      options.onBytes?.(read.bytesRead);
      if (ordinal >= last) return;
    }
    if (options.only === undefined) seen.end();
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError(`cannot read the log ${file}${number === 0 ? '' : ` after line ${number}`} (${describe(error)})`);
  } finally {
    // A stop before the end (an error, a bomb) closes the file under a gunzip too.
    source?.destroy();
  }
}

/** A HAR's entries in batches, each numbered as its "line". */
function* harBatches(entries: readonly HarEntry[], file: string, finish: (result: LineResult) => LineResult, seen: ReadCheck): Generator<LogLine[]> {
  seen.format = 'har';
  const size = 1000;
  for (let from = 0; from < entries.length; from += size) {
    yield entries.slice(from, from + size).map((entry, index) => seen.line({ file, line: from + index + 1, result: finish(entry) }));
  }
  seen.end();
}

/** A Parquet file's rows in batches, each numbered as its "line" (the row's number in the file). */
async function* parquetBatches(file: string, path: string, options: TrafficReadOptions, finish: (result: LineResult) => LineResult, seen: ReadCheck): AsyncGenerator<LogLine[]> {
  seen.format = 'parquet';
  // Loaded for a Parquet file only: other logs never load the Parquet reader.
  const { readParquetRows } = await import('./parquet.js');
  // With `only`, a row's number is its ordinal too: Parquet has no blank lines.
  for await (const rows of readParquetRows(file, path, options, options.onBytes, options.only)) {
    yield rows.map(({ line, result }) => seen.line({ file, line, result: finish(result), ...(options.only === undefined ? {} : { ordinal: line }) }));
  }
  if (options.only === undefined) seen.end();
}

/**
 * A file none of whose lines is a request of its format is not that format: an error naming
 * the file, its first line and why, rather than a report of nothing but skipped lines.
 */
class ReadCheck {
  format: LogFormat | undefined;
  private requests = 0;
  private firstSkip: { line: number; reason: string } | undefined;
  private skips = 0;

  constructor(private readonly file: string, named: LogFormat | undefined) {
    this.format = named;
  }

  line(line: LogLine): LogLine {
    if ('request' in line.result) this.requests += 1;
    else {
      this.skips += 1;
      this.firstSkip ??= { line: line.line, reason: line.result.skip };
    }
    return line;
  }

  end(): void {
    if (this.requests > 0 || this.firstSkip === undefined) return;
    throw new UserError(`${this.file}:${this.firstSkip.line}: ${this.firstSkip.reason}, and so is every line of the file (${this.skips}): ` +
      `it is not a ${this.format ?? 'known'} log`, ['Name its format with --log-format, or check the file.']);
  }
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR') return 'the gzip data is damaged or cut short';
  return code ?? (error instanceof Error ? error.message : 'unreadable');
}

/** A file stream (in chunks of `highWaterMark` bytes, after gunzip for gzip), through gunzip when the file starts with gzip's magic bytes 1f 8b (`file` counts the bytes read); whether it starts as Parquet does. */
async function openLog(path: string, highWaterMark?: number): Promise<{ file: ReadStream; lines: Readable; gzip: boolean; parquet: boolean }> {
  const handle = await open(path, 'r');
  const magic = Buffer.alloc(4);
  try {
    await handle.read(magic, 0, 4, 0);
  } finally {
    await handle.close();
  }
  const gzip = magic[0] === 0x1f && magic[1] === 0x8b;
  // Larger chunks where asked: of the file as it is, or of what gunzip gives (its input is still
  // read in small pieces, which the bomb guard weighs the output against).
  const stream = createReadStream(path, highWaterMark === undefined || gzip ? {} : { highWaterMark });
  return { file: stream, lines: gzip ? stream.pipe(createGunzip(highWaterMark === undefined ? {} : { chunkSize: highWaterMark })) : stream, gzip, parquet: isParquetMagic(magic) };
}
