// Undecided outcomes in replay: a `$re` only JavaScript's backtracking engine can run (a
// lookahead not at the start of the text) is interrupted on a hostile user agent, and the request's outcome is its own
// outcome, "undecided", naming the rule and the pattern, in every format; before, it was
// tallied as "no rule" and the transition read as harmless.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LiveRule, Rule } from '../../src/semantics/model.js';
import { botrules, replayProject, withoutEngineSentence } from './fixtures.js';

const ATTACK = `${'a'.repeat(36)}!`;

const LOOKAHEAD: Rule = {
  ruleId: 'r-1', name: 'Lookahead', description: '', status: 'active', actions: ['blockWithChallenge'],
  conditions: { operator: '$and', children: [{ operator: '$and', children: [{ conditionType: 'userAgent', operator: '$re', value: ['(?=(a+)+$)'] }] }] },
};

let project: string;
beforeAll(() => {
  // Live: the rule is paused (no rule decides); declared: it is active.
  project = replayProject([LOOKAHEAD], [{ ...LOOKAHEAD, status: 'paused', priority: 0 } as LiveRule]);
  writeFileSync(path.join(project, 'agents.ndjson'), [JSON.stringify({ userAgent: ATTACK }), JSON.stringify({ userAgent: 'aaa' }), ''].join('\n'));
});

it('counts a request whose match ran out of time as undecided, with the rule and the pattern, in text', async () => {
  const result = await botrules(project, 'replay', '--live', 'live.json', 'agents.ndjson');
  expect(withoutEngineSentence(result.stdout)).toBe([
    'Replayed 2 requests from 1 file for app "shop": 2 evaluated, 0 skipped; live = the live snapshot "live.json", declared = the rules as apply would leave them.',
    'Outcome changes, live → declared (riskiest first):',
    '    no rule → challenge: 1 request (50.0%)',
    '        1× no rule → "Lookahead"',
    '        e.g. agents.ndjson:2 {"userAgent":"aaa"}',
    '    no rule → undecided: 1 request (50.0%)',
    '        1× no rule → "Lookahead" undecided ($re "(?=(a+)+$)" out of time)',
    `        e.g. agents.ndjson:1 {"userAgent":"${ATTACK}"}`,
    'Undecided: 0 requests under the live rules and 1 request under the declared rules, where a regular expression ran out of its time budget before any rule decided; their outcome is not known (docs/evaluation.md, "Regular expressions").',
    '',
  ].join('\n'));
  expect(result.code).toBe(2);
});

it('says so in JSON and Markdown', async () => {
  const json = await botrules(project, 'replay', '--live', 'live.json', '--format', 'json', 'agents.ndjson');
  const report = JSON.parse(json.stdout) as { undecided: unknown; transitions: { from: string; to: string; rules: unknown[] }[] };
  expect(report.undecided).toEqual({ live: 0, declared: 1 });
  expect(report.transitions.map((t) => [t.from, t.to, t.rules])).toEqual([
    ['none', 'challenge', [{ after: 'Lookahead', count: 1 }]],
    ['none', 'undecided', [{ after: 'Lookahead', afterPatterns: ['(?=(a+)+$)'], count: 1 }]],
  ]);
  const markdown = await botrules(project, 'replay', '--live', 'live.json', '--format', 'markdown', 'agents.ndjson');
  const lines = withoutEngineSentence(markdown.stdout).split('\n');
  expect(lines.filter((line) => line.startsWith('| no rule'))).toEqual([
    '| no rule → challenge | 1 | 50.0% | 1× no rule → &quot;Lookahead&quot; |',
    '| no rule → undecided | 1 | 50.0% | 1× no rule → &quot;Lookahead&quot; undecided (<span>$</span>re &quot;(?=(a+)+<span>$</span>)&quot; out of time) |',
  ]);
  expect(lines.slice(-3)).toEqual([
    '> [!WARNING]',
    '> Undecided: 0 requests under the live rules and 1 request under the declared rules, where a regular expression ran out of its time budget before any rule decided; their outcome is not known (docs/evaluation.md, &quot;Regular expressions&quot;).',
    '',
  ]);
});
