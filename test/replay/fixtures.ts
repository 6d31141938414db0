// A replay project where every request's outcome is known: a live snapshot of three rules,
// rule files that change one rule's action and add a fourth, and the same requests written
// as NDJSON, CSV and a combined access log (each with one unreadable line).
import { expect } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { takeSnapshot } from '../../src/live/snapshot.js';
import type { Leaf, LiveRule, Rule } from '../../src/semantics/model.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

function ruleOf(name: string, actions: Rule['actions'], leaves: Leaf[], ruleId?: string): Rule {
  return {
    ...(ruleId === undefined ? {} : { ruleId }), name, description: '', status: 'active', actions,
    conditions: { operator: '$and', children: [{ operator: '$and', children: leaves }] },
  };
}

const MONITORS = ruleOf('Allow monitors', ['allow'], [{ conditionType: 'header', fieldOption: 'x-monitor', operator: '$exists' }], 'r-1');
const SCRAPERS = ruleOf('Block scrapers', ['hardBlock'], [{ conditionType: 'userAgent', operator: '$contains', value: 'Scrapy' }], 'r-2');
const LOGIN = ruleOf('Challenge login', ['blockWithChallenge'], [{ conditionType: 'path', operator: '$eq', value: '/login' }], 'r-3');
const CHECKOUT = ruleOf('Challenge checkout', ['blockWithChallenge'], [{ conditionType: 'path', operator: '$startsWith', value: '/checkout' }], 'r-4');

/** Live: the checkout rule is paused. Declared: it is active, and login is blocked instead of challenged. */
export const LIVE: LiveRule[] = [MONITORS, SCRAPERS, LOGIN, { ...CHECKOUT, status: 'paused' }].map((rule, priority) => ({ ...rule, priority }) as LiveRule);
export const DECLARED: Rule[] = [MONITORS, SCRAPERS, { ...LOGIN, name: 'Block login', actions: ['hardBlock'] }, CHECKOUT];

/** Line by line: scraper (block, unchanged), login (challenge → block), checkout (none → challenge),
 * monitor (allow, unchanged), login with a query (challenge → block), a bad line, /about (none). */
export const NDJSON = [
  '{"path":"/search","method":"GET","userAgent":"Scrapy/2.11"}',
  '{"path":"/login","method":"POST","userAgent":"Mozilla/5.0","ip":"203.0.113.7","country":"US"}',
  '{"path":"/checkout/pay","method":"GET","userAgent":"Mozilla/5.0","asn":13335}',
  '{"path":"/home","method":"GET","headers":{"x-monitor":"1"}}',
  '{"path":"/login?next=%2Fhome","method":"GET"}',
  '{"path": /broken',
  '{"path":"/about","method":"GET"}',
  '',
].join('\n');

export const CSV = [
  'path,method,userAgent,ip,headers.x-monitor,unknown column',
  '/search,GET,Scrapy/2.11,,,',
  '/login,POST,"Mozilla/5.0 (X11, Linux)",203.0.113.7,,',
  '/checkout/pay,GET,Mozilla/5.0,,,',
  '/home,GET,,,1,',
  '/login?next=%2Fhome,GET,,,,',
  '"/broken,GET,,,,',
  '/about,GET,,,,',
  '',
].join('\r\n');

/** Combined log lines carry no x-monitor header: line 4 has none, so it is no rule before and after. */
export const COMBINED = [
  '198.51.100.1 - - [10/Oct/2026:13:55:36 +0000] "GET /search HTTP/1.1" 200 512 "-" "Scrapy/2.11"',
  '203.0.113.7 - - [10/Oct/2026:13:55:37 +0000] "POST /login HTTP/1.1" 200 10 "https://shop.example.com/" "Mozilla/5.0 \\"quoted\\""',
  '203.0.113.8 - frank [10/Oct/2026:13:55:38 +0000] "GET /checkout/pay HTTP/2.0" 302 - "-" "Mozilla/5.0"',
  '203.0.113.9 - - [10/Oct/2026:13:55:39 +0000] "GET /home HTTP/1.1" 200 99',
  '203.0.113.9 - - [10/Oct/2026:13:55:40 +0000] "GET /login?next=%2Fhome HTTP/1.1" 200 99 "-" "curl/8.0"',
  'this is not an access log line',
  '203.0.113.9 - - [10/Oct/2026:13:55:41 +0000] "GET /about HTTP/1.1" 200 99 "-" "-"',
  '',
].join('\n');

/** What the fixture rules decide, from a request's path, user agent and whether it has x-monitor. */
export interface Seen {
  path: string;
  agent: string;
  monitor: boolean;
}

/** The fixture rules' changes: /login challenge → block, /checkout… no rule → challenge; scrapers and monitors decide first. */
export function expectedTransitions(requests: readonly Seen[]): [string, string, number][] {
  const open = requests.filter((r) => !r.monitor && !r.agent.includes('Scrapy'));
  const toChallenge = open.filter((r) => r.path.startsWith('/checkout')).length;
  const toBlock = open.filter((r) => r.path === '/login').length;
  return [['none', 'challenge', toChallenge], ['challenge', 'block', toBlock]].filter(([, , count]) => count !== 0) as [string, string, number][];
}

/** A project directory with botrules.yaml, the declared rule files and live.json. */
export function replayProject(declared: readonly Rule[] = DECLARED, live: readonly LiveRule[] = LIVE): string {
  const dir = tempDir('botrules-replay-');
  mkdirSync(path.join(dir, 'rules'));
  writeFileSync(path.join(dir, 'botrules.yaml'), stringify({ apps: [{ name: 'shop', rulesDir: 'rules' }] }));
  writeFileSync(path.join(dir, 'rules', '10-shop.yaml'), stringify({ rules: declared }));
  writeFileSync(path.join(dir, 'live.json'), `${JSON.stringify(takeSnapshot([{ app: 'shop', rules: live }], new Date('2026-11-01T00:00:00Z')), null, 2)}\n`);
  return dir;
}

/** The CLI run in-process (test/helpers/cli.ts) in `cwd`, as `runBinary` (test/helpers/binary.ts) runs it but without a process. */
export function botrules(cwd: string, ...args: string[]): Promise<CliResult> {
  return runCli(args, { cwd, env: {} });
}

/** The sentence that ends a text or Markdown replay report: which engine decided, and how fast (a timing). */
export const ENGINE_SENTENCE = /^Decided by the (js|duckdb) engine: [1-9]\d{0,2}(,\d{3})* requests\/s\.$/;

/**
 * A text or Markdown replay report without its engine sentence, once checked to be there in its
 * form: the rest of a report is exact, the requests per second are a timing and vary from run to run.
 */
export function withoutEngineSentence(report: string): string {
  const lines = report.split('\n');
  const at = lines.length - 2;
  expect(lines[at]).toMatch(ENGINE_SENTENCE);
  // In Markdown the sentence is a paragraph of its own, after a blank line.
  const from = lines[at - 1] === '' ? at - 1 : at;
  return [...lines.slice(0, from), ...lines.slice(at + 1)].join('\n');
}
