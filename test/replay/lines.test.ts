// Lines of a log stream: newlines found across chunks, a line longer than the cap skipped with
// its line number (its text never held whole), and a gzip bomb refused naming the file.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { UserError } from '../../src/errors.js';
import { LONG_LINE_REASON, MAX_LINE_CHARS, streamLines, TOO_LONG, type StreamLine } from '../../src/replay/lines.js';
import { readLog, type LogLine } from '../../src/replay/read.js';
import { tempDir } from '../helpers/temp.js';

async function linesOf(chunks: (string | Buffer)[], maxChars?: number): Promise<StreamLine[]> {
  const lines: StreamLine[] = [];
  for await (const batch of streamLines(Readable.from(chunks), maxChars === undefined ? {} : { maxChars })) lines.push(...batch);
  return lines;
}

async function readAll(file: string, cwd: string): Promise<LogLine[]> {
  const lines: LogLine[] = [];
  for await (const batch of readLog(file, { cwd })) lines.push(...batch);
  return lines;
}

describe('streamLines', () => {
  it('joins a line split over chunks and keeps a last line without a newline', async () => {
    expect(await linesOf(['ab', 'c\nd', 'e\n\nf'])).toEqual(['abc', 'de', '', 'f']);
  });

  it('decodes a UTF-8 character split between two chunks', async () => {
    const bytes = Buffer.from('é\n€');
    expect(await linesOf([bytes.subarray(0, 1), bytes.subarray(1, 4), bytes.subarray(4)])).toEqual(['é', '€']);
  });

  it('marks a line longer than the cap, keeping the line numbers of the lines after it', async () => {
    expect(await linesOf(['short\n', 'x'.repeat(6), 'x'.repeat(6), 'y\nok\n', 'z'.repeat(11), '\n'], 10)).toEqual(['short', TOO_LONG, 'ok', TOO_LONG]);
    expect(await linesOf(['0123456789\n0123456789a'], 10)).toEqual(['0123456789', TOO_LONG]);
  });
});

describe('readLog on hostile files', () => {
  it('skips one line of megabytes with its line number and reads the lines around it', async () => {
    const dir = tempDir();
    const long = `{"path":"/${'a'.repeat(MAX_LINE_CHARS * 8)}"}`;
    writeFileSync(path.join(dir, 'long.ndjson.gz'), gzipSync(`{"path":"/a"}\n${long}\n{"path":"/b"}\n`));
    const lines = await readAll('long.ndjson.gz', dir);
    expect(lines.map((line) => [line.line, line.result])).toEqual([
      [1, { request: { path: '/a' } }],
      [2, { skip: LONG_LINE_REASON }],
      [3, { request: { path: '/b' } }],
    ]);
  });

  it('refuses a gzip bomb, naming the file', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'bomb.ndjson.gz'), gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20)));
    const reading = readAll('bomb.ndjson.gz', dir);
    await expect(reading).rejects.toThrow(UserError);
    await expect(reading).rejects.toThrow(/^bomb\.ndjson\.gz: the gzip data expands more than 200 times/);
  });
});
