// No silent all-clear (docs/replay.md, "Fields the log lacks"): the three logs that once gave
// "No outcome changes" and exit 0 without having been read — lines whose names map to nothing,
// an access log under a change to a country condition, lower-case countries — each name the
// problem and exit 2; a log that carries what the change reads still exits 0.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Leaf, LiveRule, Rule } from '../../src/semantics/model.js';
import { botrules, replayProject } from './fixtures.js';

function ruleOf(name: string, actions: Rule['actions'], leaves: Leaf[], ruleId: string): Rule {
  return { ruleId, name, description: '', status: 'active', actions, conditions: { operator: '$and', children: [{ operator: '$and', children: leaves }] } };
}

const SCRAPERS = ruleOf('Block scrapers', ['hardBlock'], [{ conditionType: 'userAgent', operator: '$contains', value: 'Scrapy' }], 'r-1');
const COUNTRIES = ruleOf('Block countries', ['hardBlock'], [{ conditionType: 'country', operator: '$in', value: ['RU'] }], 'r-2');
const LIVE: LiveRule[] = [SCRAPERS, COUNTRIES].map((rule, priority) => ({ ...rule, priority }) as LiveRule);
/** The change: Germany joins the blocked countries. */
const DECLARED: Rule[] = [SCRAPERS, { ...COUNTRIES, conditions: { operator: '$and', children: [{ operator: '$and', children: [{ conditionType: 'country', operator: '$in', value: ['RU', 'DE'] }] }] } }];

const agents = ['Mozilla/5.0', 'Scrapy/2.11', 'curl/8.0', 'Mozilla/5.0 (X11)'];
/** Twelve requests: every fourth a scraper (blocked before the country rule is reached), every third from Germany. */
const requests = Array.from({ length: 12 }, (_, i) => ({ path: `/p/${i}`, method: 'GET', userAgent: agents[i % 4] ?? '', ip: `203.0.113.${i}`, country: i % 3 === 0 ? 'de' : 'us' }));
const scrapers = requests.filter((r) => r.userAgent.startsWith('Scrapy')).length;
const germansNotScrapers = requests.filter((r) => r.country === 'de' && !r.userAgent.startsWith('Scrapy')).length;

let project: string;
beforeAll(() => {
  project = replayProject(DECLARED, LIVE);
  const cloudflare = requests.map((r) => JSON.stringify({ ClientRequestPath: r.path, ClientRequestMethod: r.method, ClientRequestUserAgent: r.userAgent, ClientIP: r.ip, ClientCountry: r.country, EdgeResponseStatus: 200 }));
  writeFileSync(path.join(project, 'logpush.ndjson'), `${cloudflare.join('\n')}\n`);
  const nginx = requests.map((r) => `${r.ip} - - [10/Oct/2026:13:55:36 +0000] "${r.method} ${r.path} HTTP/1.1" 200 10 "-" "${r.userAgent}"`);
  writeFileSync(path.join(project, 'access.log'), `${nginx.join('\n')}\n`);
  writeFileSync(path.join(project, 'lower.ndjson'), `${requests.map((r) => JSON.stringify(r)).join('\n')}\n`);
  writeFileSync(path.join(project, 'no-country-change.ndjson'), `${requests.map((r) => JSON.stringify({ ...r, country: 'US' })).join('\n')}\n`);
});

interface Coverage {
  carried: Record<string, number>;
  empty: { count: number; keys: string[]; first?: { file: string; line: number } };
  missing: { field: string; rules: string[]; undecided: number }[];
  undecided: number;
}

async function json(file: string): Promise<{ code: number; report: { evaluated: number; transitions: { from: string; to: string; count: number }[]; coverage: Coverage } }> {
  const result = await botrules(project, 'replay', '--live', 'live.json', '--format', 'json', file);
  return { code: result.code, report: JSON.parse(result.stdout) as never };
}

it('names lines whose keys map to no request field, suggests the preset, and exits 2', async () => {
  // Named as plain NDJSON, the Logpush names map to nothing.
  const result = await botrules(project, 'replay', '--live', 'live.json', '--format', 'json', '--log-format', 'ndjson', 'logpush.ndjson');
  const report = (JSON.parse(result.stdout) as { transitions: unknown[]; coverage: Coverage });
  expect(result.code).toBe(2);
  expect(report.transitions).toEqual([]);
  expect(report.coverage.empty).toEqual({ count: 12, keys: ['ClientRequestPath', 'ClientRequestMethod', 'ClientRequestUserAgent', 'ClientIP', 'ClientCountry', 'EdgeResponseStatus'], first: { file: 'logpush.ndjson', line: 1 } });
  expect(report.coverage.undecided).toBe(12);
  const text = await botrules(project, 'replay', '--live', 'live.json', '--log-format', 'ndjson', 'logpush.ndjson');
  expect(text.code).toBe(2);
  expect(text.stdout).toContain('Not read as requests: 12 lines carry none of the request fields, so their outcome is unknown (first at logpush.ndjson:1; its keys: ClientRequestPath, ClientRequestMethod, ClientRequestUserAgent, ClientIP, ClientCountry, EdgeResponseStatus). They look like the cloudflare format: name it with --log-format cloudflare');
  expect(text.stdout).not.toContain('No outcome changes: every evaluated request');
});

it('names keys of no known format with the replay.fields mapping to write', async () => {
  writeFileSync(path.join(project, 'pipeline.ndjson'), `${requests.map((r) => JSON.stringify({ url: { path: r.path }, ua: r.userAgent })).join('\n')}\n`);
  const text = await botrules(project, 'replay', '--live', 'live.json', 'pipeline.ndjson');
  expect(text.code).toBe(2);
  expect(text.stdout).toContain('(first at pipeline.ndjson:1; its keys: url, ua). Map the log\'s keys onto the request fields in botrules.yaml (replay.fields)');
});

it('tells a Logpush file by its keys and reads its lower-case countries as the service does', async () => {
  const { code, report } = await json('logpush.ndjson');
  expect(report.coverage.undecided).toBe(0);
  expect(report.transitions.map((t) => [t.from, t.to, t.count])).toEqual([['none', 'block', germansNotScrapers]]);
  expect(code).toBe(2);
});

it('names a field the changed rule reads that an access log lacks, with the share undecided, and exits 2', async () => {
  const { code, report } = await json('access.log');
  expect(code).toBe(2);
  expect(report.coverage.carried).toMatchObject({ path: 12, method: 12, userAgent: 12, ip: 12, country: 0 });
  // A scraper is blocked by the rule before the country rule under both sets: decided without a country.
  expect(report.coverage.missing).toEqual([{ field: 'country', rules: ['Block countries'], undecided: requests.length - scrapers }]);
  expect(report.coverage.undecided).toBe(requests.length - scrapers);
  const markdown = await botrules(project, 'replay', '--live', 'live.json', '--format', 'markdown', 'access.log');
  expect(markdown.code).toBe(2);
  expect(markdown.stdout).toContain(`> Field country lacking: &quot;Block countries&quot;, touched by the change, reads it, and ${requests.length - scrapers} requests (75.0%) lack it where their outcome depends on it.`);
  expect(markdown.stdout).toContain('No outcome changes among the 3 decided requests; 9 requests undecided for lack of fields (above).');
});

it('compares lower-case countries as the service does (upper-case) and finds the change', async () => {
  const { code, report } = await json('lower.ndjson');
  expect(code).toBe(2);
  expect(report.coverage.undecided).toBe(0);
  expect(report.transitions.map((t) => [t.from, t.to, t.count])).toEqual([['none', 'block', germansNotScrapers]]);
});

it('exits 0 when every request carries what the change reads and none changes outcome', async () => {
  const { code, report } = await json('no-country-change.ndjson');
  expect(report.coverage.undecided).toBe(0);
  expect(report.transitions).toEqual([]);
  expect(code).toBe(0);
});

it('an empty log is no all-clear: nothing was evaluated, exit 2', async () => {
  writeFileSync(path.join(project, 'empty.ndjson'), '\n\n');
  const text = await botrules(project, 'replay', '--live', 'live.json', 'empty.ndjson');
  expect(text.stdout).toContain('No request was evaluated: this replay says nothing about the change (it is not an all-clear).');
  expect(text.code).toBe(2);
});

it('plan --replay warns that undecided requests are outside the traffic limit', async () => {
  const result = await botrules(project, 'plan', '--live', 'live.json', '--replay', 'access.log');
  expect(result.stderr).toContain(`warning: ${requests.length - scrapers} of the ${requests.length} replayed requests are undecided for lack of fields the changed rules read (see the replay report): the traffic limit counts only decided requests`);
});
