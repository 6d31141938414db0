// Coverage judged by calendar interval (src/scripts/coverage.ts): the buckets the calendar
// draws are the ones the verdict reads, and each gap says how far past the interval it ran.
import { coverage } from '../../src/scripts/coverage.js';
import type { Snapshot } from '../../src/scripts/model.js';
import type { SeriesMember } from '../../src/scripts/series.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const FROM = Date.parse('2026-01-05T00:00:00Z');

const member = (at: number): SeriesMember => ({ file: `s-${at}.json`, snapshot: { takenAt: new Date(at).toISOString() } as Snapshot, digest: '', copies: [] });
const cover = (times: number[], to: number, interval = WEEK) => coverage(times.map(member), { from: FROM, to }, interval);
const states = (times: number[], to: number) => cover(times, to).buckets.map((b) => b.state);

it('passes weekly runs that each start a few seconds later than a week after the one before', () => {
  const runs = [0, 1, 2, 3].map((k) => FROM + 5 * HOUR + k * (WEEK + 7_000));
  const result = cover(runs, FROM + 4 * WEEK);
  expect(result.buckets.map((b) => [b.snapshots, b.state])).toEqual([[1, 'covered'], [1, 'covered'], [1, 'covered'], [1, 'covered']]);
  expect(result.gaps).toEqual([]);
  expect(result.longestWithoutCheckMs).toBe(WEEK + 7_000);
});

it('reports a run of missed weeks as one gap, with the stretch around it and the excess', () => {
  const result = cover([FROM + HOUR, FROM + 3 * WEEK + 2 * HOUR], FROM + 4 * WEEK);
  expect(result.buckets.map((b) => b.state)).toEqual(['covered', 'missed', 'missed', 'covered']);
  expect(result.gaps).toEqual([{
    intervals: { from: '2026-01-12T00:00:00.000Z', to: '2026-01-26T00:00:00.000Z', count: 2 },
    from: '2026-01-05T01:00:00.000Z',
    to: '2026-01-26T02:00:00.000Z',
    durationMs: 3 * WEEK + HOUR,
    overMs: 2 * WEEK + HOUR,
    after: { file: `s-${FROM + HOUR}.json`, takenAt: '2026-01-05T01:00:00.000Z' },
    before: { file: `s-${FROM + 3 * WEEK + 2 * HOUR}.json`, takenAt: '2026-01-26T02:00:00.000Z' },
  }]);
});

it('a short last interval is missed only once more than the interval passed since the last run', () => {
  expect(states([FROM + 6 * DAY], FROM + WEEK + 3 * DAY)).toEqual(['covered', 'not-due']);
  expect(states([FROM + DAY], FROM + WEEK + 3 * DAY)).toEqual(['covered', 'missed']);
  expect(cover([FROM + DAY], FROM + WEEK + 3 * DAY).gaps.map((g) => [g.from, g.to, g.overMs])).toEqual([['2026-01-06T00:00:00.000Z', '2026-01-15T00:00:00.000Z', 2 * DAY]]);
});

it('a run before the period does not cover its first interval, but starts the stretch of its gap', () => {
  const result = cover([FROM - HOUR, FROM + WEEK + HOUR], FROM + 2 * WEEK);
  expect(result.buckets.map((b) => b.state)).toEqual(['missed', 'covered']);
  expect(result.gaps.map((g) => [g.from, g.durationMs, g.overMs])).toEqual([['2026-01-04T23:00:00.000Z', WEEK + 2 * HOUR, 2 * HOUR]]);
});

it('a run exactly at the end of the period counts in the last interval', () => {
  expect(states([FROM + DAY, FROM + 2 * WEEK], FROM + 2 * WEEK)).toEqual(['covered', 'covered']);
});

it('passes the example workflow weekly pack: from midnight a week before the run to just after it', () => {
  const run = FROM + WEEK + 5 * HOUR + 23 * 60_000 + 40_000;
  const previous = FROM + 5 * HOUR + 23 * 60_000 + 5_000;
  const result = cover([previous, run], run + 2 * 60_000);
  expect(result.buckets.map((b) => b.state)).toEqual(['covered', 'covered']);
  expect(result.gaps).toEqual([]);
  // Without last week's run, the first week is missed.
  expect(cover([run], run + 2 * 60_000).buckets.map((b) => b.state)).toEqual(['missed', 'covered']);
});
