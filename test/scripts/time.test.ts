import { UserError } from '../../src/errors.js';
import { parseInterval } from '../../src/scripts/coverage.js';
import { durationMs, parseTimeArg, resolveWindow } from '../../src/scripts/time.js';

const NOW = Date.UTC(2025, 5, 15, 12, 0, 0); // 2025-06-15T12:00:00Z
const HOUR = 3_600_000;

describe('parseTimeArg', () => {
  it.each([
    ['1735689600000', 1_735_689_600_000],
    ['2025-01-01', Date.UTC(2025, 0, 1)],
    ['2025-01-01T08:30:00Z', Date.UTC(2025, 0, 1, 8, 30)],
    ['2025-01-01T08:30Z', Date.UTC(2025, 0, 1, 8, 30)],
    ['2025-01-01T08:30:00.250+02:00', Date.UTC(2025, 0, 1, 6, 30, 0, 250)],
    ['2025-01-01T08:30:00-0130', Date.UTC(2025, 0, 1, 10, 0)],
    ['90m', NOW - 90 * 60_000],
    ['24h', NOW - 24 * HOUR],
    ['7d', NOW - 7 * 24 * HOUR],
    ['2w', NOW - 14 * 24 * HOUR],
    ['30s', NOW - 30_000],
    ['now', NOW],
  ])('reads %s', (text, expected) => {
    expect(parseTimeArg(text, NOW)).toBe(expected);
  });

  it.each([
    ['yesterday', /not a time/],
    ['2025-02-30', /no such calendar date/],
    ['2025-13-01', /no such calendar date/],
    ['2025-01-01T25:00:00Z', /no such time of day/],
    ['2025-01-01T08:00:00', /needs a UTC offset/],
    ['1735689600', /looks like epoch seconds/],
    ['99999999999999999999', /too large/],
    ['-5h', /not a time/],
    ['5y', /not a time/],
  ])('refuses %s', (text, message) => {
    expect(() => parseTimeArg(text, NOW, '--to')).toThrow(UserError);
    expect(() => parseTimeArg(text, NOW, '--to')).toThrow(message);
  });

  it('names the flag in its message', () => {
    expect(() => parseTimeArg('soon', NOW, '--to')).toThrow(/^--to soon/);
  });
});

describe('resolveWindow', () => {
  it('defaults to the 24 hours before now', () => {
    expect(resolveWindow({}, NOW)).toEqual({ from: NOW - 24 * HOUR, to: NOW });
  });

  it('counts the default from back from an explicit to', () => {
    const to = Date.UTC(2025, 0, 2);
    expect(resolveWindow({ to: '2025-01-02' }, NOW)).toEqual({ from: to - 24 * HOUR, to });
  });

  it('counts durations back from now, not from --to', () => {
    expect(resolveWindow({ from: '7d', to: '1h' }, NOW)).toEqual({ from: NOW - 168 * HOUR, to: NOW - HOUR });
  });

  it('refuses a from after to', () => {
    expect(() => resolveWindow({ from: '2025-06-02', to: '2025-06-01' }, NOW)).toThrow(/--from \(2025-06-02T00:00:00.000Z\) is after --to/);
  });

  it('accepts an empty window (from equals to)', () => {
    expect(resolveWindow({ from: '2025-06-01', to: '2025-06-01' }, NOW)).toEqual({ from: Date.UTC(2025, 5, 1), to: Date.UTC(2025, 5, 1) });
  });
});

describe('durationMs and the evidence interval: one grammar of lengths', () => {
  it.each([
    ['30s', 30_000], ['90m', 90 * 60_000], [' 24h ', 24 * HOUR], ['7d', 7 * 24 * HOUR], ['2w', 14 * 24 * HOUR], ['0d', 0],
    ['1.5h', undefined], ['1y', undefined], ['2 days', undefined], ['100', undefined], ['-1d', undefined], ['7D', undefined], ['', undefined],
  ])('%j is %j ms', (text, expected) => {
    expect(durationMs(text)).toBe(expected);
  });

  it('takes any length of at least an hour as the interval, and refuses shorter ones or other words', () => {
    expect(parseInterval('7d')).toBe(7 * 24 * HOUR);
    expect(parseInterval('90m')).toBe(90 * 60_000);
    expect(parseInterval('1h')).toBe(HOUR);
    for (const text of ['59m', '0h', 'weekly', '1.5d']) {
      expect(() => parseInterval(text)).toThrow(new UserError(`--interval ${text}: write a length of at least 1h, such as 7d (the default: weekly, as PCI DSS 11.6.1 asks), 1d or 2w`));
    }
  });
});
