// Shadow rules: a rule declared `mode: shadow` is applied paused, and replay reports, apart
// from the live → declared changes, what it would decide if it were active. Promoting it is a
// one-line change to `mode: active`, whose plan --replay shows the same requests as a change.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import type { Rule } from '../../src/semantics/model.js';
import { botrules, DECLARED, NDJSON, replayProject, withoutEngineSentence } from './fixtures.js';

const [MONITORS, SCRAPERS, LOGIN, CHECKOUT] = DECLARED as [Rule, Rule, Rule, Rule];
const { status: _status, ...checkout } = CHECKOUT;
const SHADOW_CHECKOUT = { ...checkout, mode: 'shadow' };

function shadowProject(checkoutRule: object): string {
  const project = replayProject();
  writeFileSync(path.join(project, 'rules', '10-shop.yaml'), stringify({ rules: [MONITORS, SCRAPERS, LOGIN, checkoutRule] }));
  writeFileSync(path.join(project, 'a.ndjson'), NDJSON);
  return project;
}

const HEADLINE = 'Replayed 7 requests from 1 file for app "shop": 6 evaluated, 1 skipped; live = the live snapshot "live.json", declared = the rules as apply would leave them.';

it('applies a shadow rule paused: the plan does not activate it', async () => {
  const project = shadowProject(SHADOW_CHECKOUT);
  const plan = await botrules(project, 'plan', '--live', 'live.json');
  expect(plan.code).toBe(0);
  expect(plan.stdout.split('\n').filter((line) => line.includes('Challenge checkout'))).toEqual([]);
});

it('reports what a shadow rule would decide if active, apart from the live → declared changes', async () => {
  const project = shadowProject(SHADOW_CHECKOUT);
  const result = await botrules(project, 'replay', '--live', 'live.json', 'a.ndjson');
  expect(withoutEngineSentence(result.stdout)).toBe([
    HEADLINE,
    'Skipped lines:',
    '    1 not JSON (first at a.ndjson:6)',
    'Outcome changes, live → declared (riskiest first):',
    '    challenge → block: 2 requests (33.3%)',
    '        2× "Challenge login" → "Block login"',
    '        e.g. a.ndjson:2 {"path":"/login","method":"POST","userAgent":"Mozilla/5.0","ip":"203.0.113.7","country":"US"}',
    '        e.g. a.ndjson:5 {"path":"/login","method":"GET","query":{"next":"/home"}}',
    'Shadow rules (applied paused): "Challenge checkout"; outcome changes if they were active, declared → shadow rules active:',
    '    no rule → challenge: 1 request (16.7%)',
    '        1× no rule → "Challenge checkout"',
    '        e.g. a.ndjson:3 {"path":"/checkout/pay","method":"GET","userAgent":"Mozilla/5.0","asn":"13335"}',
    '',
  ].join('\n'));
  expect(result.code).toBe(2);

  const json = JSON.parse((await botrules(project, 'replay', '--live', 'live.json', '--format', 'json', 'a.ndjson')).stdout) as { shadow: { rules: string[]; undecided: number; transitions: { from: string; to: string; count: number }[] } };
  expect(json.shadow.rules).toEqual(['Challenge checkout']);
  expect(json.shadow.transitions.map((t) => [t.from, t.to, t.count])).toEqual([['none', 'challenge', 1]]);

  const markdown = (await botrules(project, 'replay', '--live', 'live.json', '--format', 'markdown', 'a.ndjson')).stdout.split('\n');
  const at = markdown.indexOf('#### Shadow rules');
  expect(markdown.slice(at, at + 7)).toEqual([
    '#### Shadow rules',
    '',
    'Shadow rules (applied paused): &quot;Challenge checkout&quot;; outcome changes if they were active, declared → shadow rules active:',
    '',
    '| Outcome change | Requests | Share | Main rules |',
    '| --- | ---: | ---: | --- |',
    '| no rule → challenge | 1 | 16.7% | 1× no rule → &quot;Challenge checkout&quot; |',
  ]);
});

it('promoting it (mode: active) shows the same requests as a change of the plan, in plan --replay', async () => {
  const project = shadowProject({ ...SHADOW_CHECKOUT, mode: 'active' });
  const result = await botrules(project, 'plan', '--live', 'live.json', '--replay', 'a.ndjson');
  expect(result.code).toBe(0);
  const lines = result.stdout.split('\n');
  expect(lines.slice(4, 7)).toEqual([
    '    no rule → challenge: 1 request (16.7%)',
    '        1× no rule → "Challenge checkout"',
    '        e.g. a.ndjson:3 {"path":"/checkout/pay","method":"GET","userAgent":"Mozilla/5.0","asn":"13335"}',
  ]);
  expect(lines.filter((line) => line.startsWith('Shadow rules'))).toEqual([]);
});

it('refuses status: active beside mode: shadow, at its line', async () => {
  const project = shadowProject({ ...SHADOW_CHECKOUT, status: 'active' });
  const result = await botrules(project, 'validate');
  expect(result.code).toBe(1);
  expect(result.stderr.split('\n')[0]).toMatch(/^rules\/10-shop\.yaml:\d+:\d+: a rule with mode: shadow is applied paused; remove status: active, or promote the rule with mode: active$/);
});
