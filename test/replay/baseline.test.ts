// replay --baseline REPORT.json: this week's outcome changes against last week's report — the
// rule pairs that newly change outcome and those that stopped — and a baseline that is not a
// replay report is an error naming the file, before anything is replayed.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { botrules, NDJSON, replayProject } from './fixtures.js';

let project: string;
beforeAll(() => {
  project = replayProject();
  // Last week: only the login requests; this week: the checkout requests too, and no login.
  const lines = NDJSON.split('\n');
  writeFileSync(path.join(project, 'last-week.ndjson'), `${lines.filter((line) => line.includes('/login')).join('\n')}\n`);
  writeFileSync(path.join(project, 'this-week.ndjson'), `${lines.filter((line) => line.includes('/checkout') || line.includes('/about')).join('\n')}\n`);
});

interface Comparison {
  newly: { from: string; to: string; before?: string; after?: string; count: number; baselineCount: number }[];
  stopped: { from: string; to: string; before?: string; after?: string; count: number; baselineCount: number }[];
}

it('names what newly changes outcome and what stopped since the baseline', async () => {
  const last = await botrules(project, 'replay', '--live', 'live.json', '--format', 'json', 'last-week.ndjson');
  writeFileSync(path.join(project, 'last-week.json'), last.stdout);
  const result = await botrules(project, 'replay', '--live', 'live.json', '--format', 'json', '--baseline', 'last-week.json', 'this-week.ndjson');
  const { baseline } = JSON.parse(result.stdout) as { baseline: Comparison };
  expect(baseline.newly.map((c) => [c.from, c.to, c.before, c.after, c.count, c.baselineCount])).toEqual([['none', 'challenge', undefined, 'Challenge checkout', 1, 0]]);
  expect(baseline.stopped.map((c) => [c.from, c.to, c.before, c.after, c.count, c.baselineCount])).toEqual([['challenge', 'block', 'Challenge login', 'Block login', 0, 2]]);
  const text = await botrules(project, 'replay', '--live', 'live.json', '--baseline', 'last-week.json', 'this-week.ndjson');
  expect(text.stdout).toContain([
    'Since the baseline last-week.json: 1 rule pair newly changes outcome, 1 rule pair stopped.',
    '    newly: no rule → challenge, no rule → "Challenge checkout": 1 request (50.0%)',
    '    stopped: challenge → block, "Challenge login" → "Block login": 2 requests in the baseline (100.0%)',
  ].join('\n'));
});

it('says nothing is new or gone against the same report', async () => {
  const last = await botrules(project, 'replay', '--live', 'live.json', '--format', 'json', 'last-week.ndjson');
  writeFileSync(path.join(project, 'same.json'), last.stdout);
  const text = await botrules(project, 'replay', '--live', 'live.json', '--baseline', 'same.json', 'last-week.ndjson');
  expect(text.stdout).toContain('Since the baseline same.json: no outcome change is new or gone.');
});

it.each([
  ['not JSON', 'notes.json', 'hello', 'error: notes.json:1:1: the baseline is not JSON'],
  ['a plan, not a report', 'plan.json', JSON.stringify({ formatVersion: 1, apps: [] }), 'error: plan.json:1:1: not a replay report'],
  ['a missing file', 'missing.json', undefined, 'error: cannot read the baseline missing.json (ENOENT)'],
])('refuses %s, naming the file', async (_what, file, content, message) => {
  if (content !== undefined) writeFileSync(path.join(project, file), content);
  const result = await botrules(project, 'replay', '--live', 'live.json', '--baseline', file, 'this-week.ndjson');
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr.split('\n')[0]).toMatch(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
});
