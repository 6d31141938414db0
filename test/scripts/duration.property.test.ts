// describeDuration (src/scripts/duration.ts) over generated lengths: at most two units, the
// smaller one below its carry ("27 days 24 hours" is "28 days"), and never further from the
// length than half of the smaller unit.
import fc from 'fast-check';
import { describeDuration, describeSpan, intervalName } from '../../src/scripts/duration.js';

const UNIT_MS: Record<string, number> = { day: 86_400_000, hour: 3_600_000, minute: 60_000, second: 1000 };
const NEXT: Record<string, string> = { day: 'hour', hour: 'minute', minute: 'second' };
const PER: Record<string, number> = { hour: 24, minute: 60, second: 60 };

function parse(text: string): { parts: [number, string][]; ms: number } {
  const parts = [...text.matchAll(/(\d+) (day|hour|minute|second)s?/g)].map((m): [number, string] => [Number(m[1]), m[2] ?? '']);
  return { parts, ms: parts.reduce((sum, [n, unit]) => sum + n * (UNIT_MS[unit] ?? NaN), 0) };
}

it('writes at most two adjacent units, the second below its carry, within half the smaller unit', () => {
  fc.assert(fc.property(fc.integer({ min: 0, max: 400 * 86_400_000 }), (ms) => {
    const text = describeDuration(ms);
    const { parts, ms: read } = parse(text);
    expect(text).toMatch(/^\d+ (day|hour|minute|second)s?( \d+ (hour|minute|second)s?)?$/);
    expect(parts.length).toBeGreaterThanOrEqual(1);
    const [first, second] = parts;
    if (second) {
      expect(second[1]).toBe(NEXT[first?.[1] ?? '']);
      expect(second[0]).toBeGreaterThan(0);
      expect(second[0]).toBeLessThan(PER[second[1]] ?? 0);
    }
    if (first && first[1] !== 'second') {
      expect(first[0]).toBeGreaterThan(0);
      expect(first[0]).toBeLessThan(first[1] === 'day' ? Infinity : (PER[first[1]] ?? 0));
    }
    const precision = UNIT_MS[second?.[1] ?? NEXT[first?.[1] ?? ''] ?? 'second'] ?? 1000;
    expect(Math.abs(read - ms)).toBeLessThanOrEqual(precision / 2);
  }), { numRuns: 5000 });
});

it('carries a rounded-up smaller unit into the larger one', () => {
  const HOUR = 3_600_000;
  expect(describeDuration(28 * 24 * HOUR - 20 * 60_000)).toBe('28 days');
  expect(describeDuration(27 * 24 * HOUR + 23 * HOUR + 40 * 60_000)).toBe('28 days');
  expect(describeDuration(24 * HOUR - 1)).toBe('1 day');
  expect(describeDuration(6 * 24 * HOUR + 18 * HOUR)).toBe('6 days 18 hours');
  expect(describeDuration(7_000)).toBe('7 seconds');
  expect(describeDuration(0)).toBe('0 seconds');
  expect(intervalName(7 * 24 * HOUR)).toBe('7-day');
  expect(intervalName(12 * HOUR)).toBe('12-hour');
  expect(describeSpan('2026-01-19T00:00:00.000Z', '2026-01-26T00:00:00.000Z')).toBe('2026-01-19 to 2026-01-25');
  expect(describeSpan('2026-01-19T05:23:00.000Z', '2026-01-26T05:23:00.000Z')).toBe('2026-01-19 05:23 UTC to 2026-01-26 05:23 UTC');
});
