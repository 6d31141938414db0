// Reading request logs as a stream (docs/replay.md, "Log formats"): files and directories in
// order, gzip detected by its magic bytes, each line parsed, redacted and handed on in batches,
// so memory stays flat however long the log is.
import { createReadStream, type ReadStream } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { UserError } from '../../errors.js';
import type { TestRequest } from '../../evaluate/index.js';
import { accessLogLine, csvColumns, csvLine, isAccessLogLine, ndjsonReader, type CsvColumns, type FieldMapping, type LineResult, type LogFormat } from './formats.js';
import { normaliseRequest } from './coverage.js';
import { gzipGuard, LONG_LINE_REASON, streamLines, TOO_LONG } from './lines.js';
import { redactRequest, secretNameTest } from './redact.js';

/** One line of a log: a redacted request, or why it was skipped, with where it was. */
export interface LogLine {
  file: string;
  line: number;
  result: LineResult;
}

/** How logs are read: the command's --log-format and the project's `replay` settings. */
export interface LogReading {
  /** A format for every file; else each file's is told from its name or its first line. */
  format?: LogFormat;
  /** Where NDJSON lines keep the request fields (botrules.yaml `replay.fields`). */
  fields?: FieldMapping;
  /** Header, query and custom parameter names masked beside the built-in ones (`replay.secretNames`). */
  secretNames?: readonly string[];
}

export interface TrafficReadOptions extends LogReading {
  cwd: string;
  /** Called once each chunk's batch was taken, with the bytes of the file read so far (compressed bytes for gzip). */
  onBytes?: (bytesRead: number) => void;
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
  let parse: ((line: string) => LineResult) | undefined;
  let number = 0;
  const isSecret = secretNameTest(options.secretNames);
  let source: ReadStream | undefined;
  try {
    const opened = await openLog(path);
    source = opened.file;
    const { lines: stream, gzip } = opened;
    const read = source;
    const guard = gzip ? gzipGuard(file, () => read.bytesRead) : undefined;
    for await (const lines of streamLines(stream, guard === undefined ? {} : { onBytes: guard })) {
      const batch: LogLine[] = [];
      for (const raw of lines) {
        number += 1;
        // A line too long to read is skipped where it stands: never silent, never held whole.
        if (raw === TOO_LONG) {
          batch.push({ file, line: number, result: { skip: LONG_LINE_REASON } });
          continue;
        }
        const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
        if (text.trim() === '') continue;
        if (parse === undefined) {
          parse = parserFor(file, text, options);
          // A CSV file's first line is its header, not a request.
          if (parse !== undefined && isCsv(file, text, options.format)) continue;
          if (parse === undefined) throw new UserError(`cannot tell the format of ${file} from its first line: use --log-format ndjson, csv or combined`);
        }
        const result = parse(text);
        if ('request' in result) redactRequest(normaliseRequest(result.request), isSecret);
        batch.push({ file, line: number, result });
      }
      yield batch;
      // After the consumer has taken the batch: progress counts what was decided.
      options.onBytes?.(read.bytesRead);
    }
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError(`cannot read the log ${file}${number === 0 ? '' : ` after line ${number}`} (${describe(error)})`);
  } finally {
    // A stop before the end (an error, a bomb) closes the file under a gunzip too.
    source?.destroy();
  }
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR') return 'the gzip data is damaged or cut short';
  return code ?? (error instanceof Error ? error.message : 'unreadable');
}

/** A file stream, through gunzip when the file starts with gzip's magic bytes 1f 8b (`file` counts the bytes read). */
async function openLog(path: string): Promise<{ file: ReadStream; lines: Readable; gzip: boolean }> {
  const handle = await open(path, 'r');
  const magic = Buffer.alloc(2);
  try {
    await handle.read(magic, 0, 2, 0);
  } finally {
    await handle.close();
  }
  const stream = createReadStream(path);
  const gzip = magic[0] === 0x1f && magic[1] === 0x8b;
  return { file: stream, lines: gzip ? stream.pipe(createGunzip()) : stream, gzip };
}

function formatOf(file: string, firstLine: string, format: LogFormat | undefined): LogFormat | undefined {
  if (format !== undefined) return format;
  const name = file.toLowerCase().replace(/\.gz$/, '');
  if (/\.(ndjson|jsonl|json)$/.test(name)) return 'ndjson';
  if (name.endsWith('.csv')) return 'csv';
  if (firstLine.trimStart().startsWith('{')) return 'ndjson';
  if (isAccessLogLine(firstLine)) return 'combined';
  return undefined;
}

function isCsv(file: string, firstLine: string, format: LogFormat | undefined): boolean {
  return formatOf(file, firstLine, format) === 'csv';
}

function parserFor(file: string, firstLine: string, options: TrafficReadOptions): ((line: string) => LineResult) | undefined {
  switch (formatOf(file, firstLine, options.format)) {
    case 'ndjson': return ndjsonReader(options.fields);
    case 'combined': return accessLogLine;
    case 'csv': {
      const columns: CsvColumns | undefined = csvColumns(firstLine);
      if (columns === undefined || columns.every((column) => column === undefined)) {
        throw new UserError(`${file}: the CSV header row names none of the request fields (path, method, userAgent, ip, asn, country, domain, deviceType, headers.NAME, query.NAME, custom.NAME)`);
      }
      return (line) => csvLine(line, columns);
    }
    case undefined: return undefined;
  }
}
