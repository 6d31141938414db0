// Production's own decisions: a synthetic Data Export whose every decision agrees with the live
// rules but for planted disagreements — the report finds exactly those, grouped by rule and
// direction with their lines, keeps the service's own blocks apart, and reads true_ip when told.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Leaf, LiveRule, Rule } from '../../src/semantics/model.js';
import { botrules, replayProject } from './fixtures.js';

function ruleOf(ruleId: string, name: string, actions: Rule['actions'], leaves: Leaf[]): Rule {
  return { ruleId, name, description: '', status: 'active', actions, conditions: { operator: '$and', children: [{ operator: '$and', children: leaves }] } };
}

const RULES: Rule[] = [
  ruleOf('r-1', 'Block scrapers', ['hardBlock'], [{ conditionType: 'userAgent', operator: '$contains', value: 'Scrapy' }]),
  ruleOf('r-2', 'Challenge login', ['blockWithChallenge'], [{ conditionType: 'path', operator: '$eq', value: '/login' }]),
  ruleOf('r-3', 'Block office range', ['hardBlock'], [{ conditionType: 'socketIps', operator: '$in', value: ['192.0.2.0/24'] }]),
];
const LIVE = RULES.map((rule, priority) => ({ ...rule, priority }) as LiveRule);

interface Line {
  path: string;
  agent: string;
  clientIp: string;
  trueIp: string;
  type: 'legitimate' | 'block' | 'captcha';
  origin: string;
  filterId: string;
}

/** What the live rules decide, as production would record it when it agrees. */
function agreeing(path: string, agent: string, clientIp: string, trueIp: string): Line {
  if (agent.includes('Scrapy')) return { path, agent, clientIp, trueIp, type: 'block', origin: 'customer', filterId: 'r-1' };
  if (path === '/login') return { path, agent, clientIp, trueIp, type: 'captcha', origin: 'customer', filterId: 'r-2' };
  if (clientIp.startsWith('192.0.2.')) return { path, agent, clientIp, trueIp, type: 'block', origin: 'customer', filterId: 'r-3' };
  return { path, agent, clientIp, trueIp, type: 'legitimate', origin: '', filterId: '' };
}

const paths = ['/', '/login', '/search', '/product/1', '/checkout'];
const agents = ['Mozilla/5.0', 'Scrapy/2.11', 'curl/8.0', 'Mozilla/5.0 (Mac)'];
const lines: Line[] = Array.from({ length: 40 }, (_, i) => agreeing(paths[i % 5] ?? '/', agents[i % 4] ?? '', i % 9 === 0 ? `192.0.2.${i}` : `203.0.113.${i}`, `198.51.100.${i}`));
// Planted: production let two scrapers through (we block), blocked three ordinary requests by
// rule r-2 (we allow), and blocked four by its own bot detection (kept apart).
const planted = { weBlock: [5, 13], productionBlocked: [2, 7, 11], byService: [3, 8, 16, 22] };
for (const i of planted.weBlock) Object.assign(lines[i] as Line, { agent: 'Scrapy/2.11', path: '/search', clientIp: '203.0.113.1', type: 'legitimate', origin: '', filterId: '' });
for (const i of planted.productionBlocked) Object.assign(lines[i] as Line, { agent: 'Mozilla/5.0', path: '/about', clientIp: '203.0.113.2', type: 'captcha', origin: 'customer', filterId: 'r-2' });
for (const i of planted.byService) Object.assign(lines[i] as Line, { agent: 'Mozilla/5.0', path: '/search', clientIp: '203.0.113.3', type: 'block', origin: 'px', filterId: 'bot-1' });

const exportLine = (line: Line, i: number) => JSON.stringify({
  px_app_id: 'PXshop', request_id: `req-${i}`, domain: 'shop.example.com', path: line.path, full_url: `https://shop.example.com${line.path}`,
  http_method: 'GET', user_agent: line.agent, client_ip: line.clientIp, true_ip: line.trueIp, true_ip_asn_name: 'EXAMPLE', country: 'DE',
  type: line.type, simulated_block: false, filter_origin: line.origin, filter_id: line.filterId, filter_type: line.filterId === '' ? '' : 'custom', risk_score: 0,
});

let project: string;
beforeAll(() => {
  project = replayProject(RULES, LIVE);
  writeFileSync(path.join(project, 'export.ndjson'), `${lines.map(exportLine).join('\n')}\n`);
});

interface Production {
  recorded: number;
  compared: number;
  agreed: number;
  agreement: number;
  byService: number;
  undecided: number;
  disagreements: { direction: string; rule?: string; count: number; examples: { line: number }[] }[];
}

it('finds exactly the planted disagreements, by rule and direction, with their lines', async () => {
  const result = await botrules(project, 'replay', '--live', 'live.json', '--format', 'json', 'export.ndjson');
  const production = (JSON.parse(result.stdout) as { production: Production }).production;
  expect(production).toMatchObject({ recorded: 40, compared: 36, agreed: 31, byService: 4, undecided: 0 });
  expect(production.disagreements.map((d) => [d.direction, d.rule, d.count, d.examples.map((e) => e.line)])).toEqual([
    ['production-blocked-we-allow', 'Challenge login', 3, planted.productionBlocked.map((i) => i + 1)],
    ['we-block-production-allowed', 'Block scrapers', 2, planted.weBlock.map((i) => i + 1)],
  ]);
  const text = await botrules(project, 'replay', '--live', 'live.json', 'export.ndjson');
  expect(text.stdout).toContain('Production\'s decisions (40 requests recorded one): the live rules agree on 86.1% (31 of 36 compared); 4 requests blocked by the service itself, not a custom rule, kept apart.');
  expect(text.stdout).toContain('    production blocked or challenged, we allow: 3 requests, "Challenge login"');
});

it('reads true_ip for socketIps when botrules.yaml says so: the office rule then decides nothing', async () => {
  writeFileSync(path.join(project, 'botrules.yaml'), 'apps: [{ name: shop, rulesDir: rules }]\nreplay:\n  ipField: true_ip\n');
  const result = await botrules(project, 'replay', '--live', 'live.json', '--format', 'json', 'export.ndjson');
  const production = (JSON.parse(result.stdout) as { production: Production }).production;
  const office = lines.filter((line) => line.filterId === 'r-3').length;
  expect(office).toBeGreaterThan(0);
  expect(production.disagreements.find((d) => d.rule === 'Block office range')?.count).toBe(office);
  writeFileSync(path.join(project, 'botrules.yaml'), 'apps: [{ name: shop, rulesDir: rules }]\n');
});

it('plan --replay warns when the disagreement is above replay.maxDisagreement (default 2%), and not below it', async () => {
  const warned = await botrules(project, 'plan', '--live', 'live.json', '--replay', 'export.ndjson');
  expect(warned.stderr).toContain('warning: the live rules, evaluated as docs/evaluation.md assumes, disagree with production\'s recorded decisions on 5 of the 36 requests compared (13.9%), more than the default replay.maxDisagreement of 2% allows: the model this review relies on does not match production');
  expect(warned.stdout).toContain('Production\'s decisions (40 requests recorded one)');
  writeFileSync(path.join(project, 'botrules.yaml'), 'apps: [{ name: shop, rulesDir: rules }]\nreplay:\n  maxDisagreement: 15%\n');
  const quiet = await botrules(project, 'plan', '--live', 'live.json', '--replay', 'export.ndjson');
  expect(quiet.stderr).not.toContain('disagree');
  writeFileSync(path.join(project, 'botrules.yaml'), 'apps: [{ name: shop, rulesDir: rules }]\n');
});

it('reads the decisions of another JSON log where replay.decision names them', async () => {
  writeFileSync(path.join(project, 'botrules.yaml'), 'apps: [{ name: shop, rulesDir: rules }]\nreplay:\n  decision: { type: waf.action, origin: waf.source, filterId: waf.rule }\n');
  const own = [
    { path: '/login', userAgent: 'Mozilla/5.0', ip: '203.0.113.1', waf: { action: 'managed_challenge', source: 'customer', rule: 'r-2' } },
    { path: '/', userAgent: 'Scrapy/2.11', ip: '203.0.113.1', waf: { action: 'allow', source: 'customer' } },
    { path: '/', userAgent: 'Mozilla/5.0', ip: '203.0.113.1', waf: { action: 'deny', source: 'bot-management' } },
    { path: '/', userAgent: 'Mozilla/5.0', ip: '203.0.113.1' },
  ];
  writeFileSync(path.join(project, 'own.ndjson'), `${own.map((line) => JSON.stringify(line)).join('\n')}\n`);
  const result = await botrules(project, 'replay', '--live', 'live.json', '--format', 'json', 'own.ndjson');
  const production = (JSON.parse(result.stdout) as { production: Production }).production;
  expect(production).toMatchObject({ recorded: 3, compared: 2, agreed: 1, byService: 1 });
  expect(production.disagreements.map((d) => [d.direction, d.rule, d.count])).toEqual([['we-block-production-allowed', 'Block scrapers', 1]]);
  writeFileSync(path.join(project, 'botrules.yaml'), 'apps: [{ name: shop, rulesDir: rules }]\n');
});
