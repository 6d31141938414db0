// The lines readLog parses when only a few are wanted (wanted-lines.ts) are streamLines' lines,
// found without decoding the others: on random logs (blank lines, whitespace JavaScript trims
// but a byte scan cannot see, multi-byte and broken UTF-8, lines about the length cap, \r\n),
// cut into random chunks, every line given as text is streamLines' line of the same number, a
// line left UNREAD is one streamLines gives as a non-blank text neither wanted nor the first, and
// readLog with `only` gives exactly the lines of the whole reading at those ordinals, gzip or not.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { streamLines, TOO_LONG, type StreamLine } from '../../src/replay/lines.js';
import { readLog, type LogLine } from '../../src/replay/read.js';
import { isBlank, UNREAD, wantedLines } from '../../src/replay/wanted-lines.js';
import { tempDir } from '../helpers/temp.js';

/** Pieces of lines: JSON, blanks, whitespace only a decoder sees, wide and broken characters. */
const piece = fc.constantFrom('{"path":"/a"}', '{"path":"/é€😀"}', ' ', '\t', '\r', '\u00a0', '\ufeff', '\u2028', '\u3000', 'x', 'é', '😀', '\xff', 'ab');
const lineText = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(''));
const logBytes = fc.tuple(fc.array(lineText, { maxLength: 30 }), fc.boolean(), fc.array(fc.constantFrom(0xc3, 0xe2, 0x82, 0xf0, 0x80, 0xff), { maxLength: 3 }))
  .map(([lines, finalNewline, broken]) => {
    const text = Buffer.from(lines.join('\n') + (finalNewline ? '\n' : ''));
    // Broken UTF-8 somewhere in the middle.
    const at = Math.floor(text.length / 2);
    return Buffer.concat([text.subarray(0, at), Buffer.from(broken), text.subarray(at)]);
  });

function chunked(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const at = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  return [0, ...at].map((from, index) => bytes.subarray(from, at[index] ?? bytes.length)).filter((chunk) => chunk.length > 0);
}

async function all<T>(batches: AsyncIterable<T[]>): Promise<T[]> {
  const items: T[] = [];
  for await (const batch of batches) items.push(...batch);
  return items;
}

/** readLog's count: a too-long line and a non-blank one each take the next ordinal. */
function ordinals(lines: readonly StreamLine[]): number[] {
  let ordinal = 0;
  return lines.map((line) => (line === TOO_LONG || !isBlank(line) ? (ordinal += 1) : 0));
}

describe('wantedLines', () => {
  it('gives streamLines\' lines where it gives text, and leaves unread only non-blank lines neither wanted nor first', async () => {
    await fc.assert(fc.asyncProperty(logBytes, fc.array(fc.nat(), { maxLength: 6 }), fc.integer({ min: 1, max: 24 }), fc.array(fc.integer({ min: 1, max: 32 }), { maxLength: 5 }),
      async (bytes, cuts, maxChars, wantedList) => {
        const chunks = chunked(bytes, cuts);
        const expected = await all(streamLines(Readable.from(chunks), { maxChars }));
        const wanted = new Set(wantedList);
        const found = await all(wantedLines(Readable.from(chunks), wanted, { maxChars }));
        const numbers = ordinals(expected);
        const firstText = expected.findIndex((line) => line !== TOO_LONG && !isBlank(line));
        // Every line up to the last wanted one that the log has.
        const lastWanted = Math.max(0, ...wantedList.filter((ordinal) => numbers.includes(ordinal)));
        expect(found.length).toBeGreaterThanOrEqual(lastWanted === 0 ? 0 : numbers.indexOf(lastWanted) + 1);
        expect(found.length).toBeLessThanOrEqual(expected.length);
        found.forEach((line, at) => {
          if (line !== UNREAD) expect(line).toEqual(expected[at]);
          else {
            const text = expected[at];
            expect(text !== TOO_LONG && !isBlank(text as string) && !wanted.has(numbers[at] as number) && at !== firstText).toBe(true);
          }
        });
      }), { numRuns: 400 });
  });

  it('makes readLog with `only` give the whole reading\'s lines at those ordinals', async () => {
    const dir = tempDir();
    await fc.assert(fc.asyncProperty(logBytes, fc.array(fc.integer({ min: 1, max: 32 }), { minLength: 1, maxLength: 5 }), async (bytes, wantedList) => {
      writeFileSync(path.join(dir, 'log.ndjson'), bytes);
      const wanted = new Set(wantedList);
      const some = await all(readLog('log.ndjson', { cwd: dir, format: 'ndjson', only: wanted }));
      let whole: LogLine[];
      try {
        whole = await all(readLog('log.ndjson', { cwd: dir, format: 'ndjson' }));
      } catch {
        // Every line skipped: the whole reading refuses the file; the lines wanted are skips.
        expect(some.every((line) => 'skip' in line.result)).toBe(true);
        return;
      }
      const ordinal = ordinals(await all(streamLines(Readable.from([bytes]))));
      const lineNumbers = new Map(ordinal.map((value, at) => [value, at + 1]));
      const expected = whole.filter((line) => wanted.has([...lineNumbers].find(([, number]) => number === line.line)?.[0] ?? 0));
      expect(some.map(({ ordinal: _ordinal, ...line }) => line)).toEqual(expected);
      for (const line of some) expect(lineNumbers.get(line.ordinal as number)).toBe(line.line);
      // The same through gunzip.
      writeFileSync(path.join(dir, 'log.ndjson.gz'), gzipSync(bytes));
      const gzipped = await all(readLog('log.ndjson.gz', { cwd: dir, format: 'ndjson', only: wanted }));
      expect(gzipped.map((line) => ({ ...line, file: 'log.ndjson' }))).toEqual(some);
    }), { numRuns: 200 });
  });
});
