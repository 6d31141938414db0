// Hostile replay inputs through the real binary (docs/security.md, "Bounded resources"): a HAR
// and a baseline that nest millions of brackets are refused at their line and column before they
// are parsed, with no report and exit 1, in well under the time a parse would take.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runBinary as botrules } from '../helpers/binary.js';
import type { LiveRule, Rule } from '../../src/semantics/model.js';
import { replayProject } from './fixtures.js';

let project: string;
beforeAll(() => {
  project = replayProject();
  writeFileSync(path.join(project, 'one.ndjson'), '{"path":"/login","method":"POST"}\n');
});

const replay = (...args: string[]) => botrules(project, 'replay', '--live', 'live.json', ...args);

it('refuses a truncated HAR nesting five million brackets (it aborted the process after 4 GB)', async () => {
  writeFileSync(path.join(project, 'deep.har'), `{"log":{"entries":[${'['.repeat(5_000_000)}`);
  const result = await replay('deep.har');
  expect(result.stderr.split('\n')[0]).toBe('error: deep.har:1:273: not a HAR file: it nests more than 256 levels deep; no browser recording comes near that');
  expect(result.stdout).toBe('');
  expect(result.code).toBe(1);
});

it('says where a HAR ends too early: at its last character', async () => {
  const entry = { request: { method: 'GET', url: 'https://shop.example/login', headers: [], queryString: [], cookies: [] } };
  const text = JSON.stringify({ log: { entries: Array.from({ length: 40_000 }, () => entry) } }, null, 1);
  writeFileSync(path.join(project, 'cut.har'), text.slice(0, text.lastIndexOf(']')));
  const result = await replay('cut.har');
  const lines = text.slice(0, text.lastIndexOf(']')).split('\n');
  expect(result.stderr.split('\n')[0]).toBe(`error: cut.har:${lines.length}:${(lines.at(-1) ?? '').length + 1}: not a HAR file: not JSON`);
  expect(result.code).toBe(1);
});

it('refuses a baseline nesting millions of brackets (half a minute and 3 GB before)', async () => {
  writeFileSync(path.join(project, 'deep-baseline.json'), `${'['.repeat(3_000_000)}${']'.repeat(3_000_000)}`);
  const result = await replay('--baseline', 'deep-baseline.json', 'one.ndjson');
  expect(result.stderr.split('\n')[0]).toBe('error: deep-baseline.json:1:65: the baseline nests more than 64 levels deep; no file botrules writes comes near that: give a report written by botrules replay --format json');
  expect(result.stdout).toBe('');
  expect(result.code).toBe(1);
});

it('groups production disagreements of at most 1,000 rules, the rest as other rules, and shows a long filter id cut', async () => {
  const lines = Array.from({ length: 5_000 }, (_, i) =>
    JSON.stringify({ path: '/', http_method: 'GET', px_app_id: 'PX1', type: 'block', filter_origin: 'customer', filter_id: `f${i}-${'A'.repeat(200)}` }));
  const login: Rule = {
    ruleId: 'r-1', name: 'Challenge login', description: '', status: 'active', actions: ['blockWithChallenge'],
    conditions: { operator: '$and', children: [{ operator: '$and', children: [{ conditionType: 'path', operator: '$eq', value: '/login' }] }] },
  };
  const exported = replayProject([login], [{ ...login, priority: 0 } as LiveRule]);
  writeFileSync(path.join(exported, 'export.ndjson'), `${lines.join('\n')}\n`);
  const replay = (...args: string[]) => botrules(exported, 'replay', '--live', 'live.json', ...args);
  const result = await replay('--log-format', 'human', '--format', 'json', 'export.ndjson');
  const report = JSON.parse(result.stdout) as { production: { disagreements: { rule?: string; otherRules?: boolean; count: number }[] } };
  const groups = report.production.disagreements;
  expect(groups).toHaveLength(1_001);
  expect(groups[0]).toMatchObject({ otherRules: true, count: 4_000 });
  expect(groups[1]?.rule).toBe(`filter f0-${'A'.repeat(61)}… (203 characters)`);
  const text = await replay('--log-format', 'human', 'export.ndjson');
  expect(text.stdout).toContain('    production blocked or challenged, we allow: 4000 requests, other rules (past the first 1,000 groups of rule and direction)\n');
  expect(text.stdout.split('\n').length).toBeLessThan(2_100);
});
