// The pull-request comment of a typical pull request, through the real binary against the
// emulator and rendered by GitHub's own engine: one condition changed, two rules swapped, one
// paused, one new rule, one rule file deleted. A reviewer's first screen must show every one of
// those edits (before → after) and what needs their attention, before the long lists.
// git and the binary spawned several times: the slow tier.
import { execFile } from 'node:child_process';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { CLI_BINARY } from '../helpers/binary.js';
import { matrixCoverage } from '../helpers/operator-matrix.js';
import { rule, tempProject, writeRules, type Project } from '../apply/fixtures.js';
import type { Conditions, NormalRule } from '../../src/semantics/model.js';
import { planCommentBody } from '../../src/render/github-steps/comments.js';
import { renderGfm } from '../helpers/cmark.js';

let emu: TestEmulator;
let project: Project;

const GIT_ENV = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_NOSYSTEM: '1' };

function run(file: string, argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, argv, { cwd: project.dir, env: { ...emu.env, PATH: process.env.PATH, HOME: project.dir, NO_COLOR: '1', ...GIT_ENV } }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr }),
    );
  });
}

async function git(argv: string[]): Promise<void> {
  const result = await run('git', argv);
  if (result.code !== 0) throw new Error(`git ${argv.join(' ')}: ${result.stderr}`);
}

const one = (conditionType: string, operator: string, value: string | string[]): Conditions =>
  ({ operator: '$or', children: [{ operator: '$and', children: [{ conditionType, operator, value }] }] }) as Conditions;

// From the monitor's published range: an allow rule on the user agent alone would be a built-in
// policy finding (abusable-allow), which this pull request is not about.
const monitor = rule('Allow uptime monitor', {
  actions: ['allow'],
  conditions: { operator: '$or', children: [{ operator: '$and', children: [
    { conditionType: 'userAgent', operator: '$contains', value: 'Pingdom' },
    { conditionType: 'socketIps', operator: '$in', value: ['203.0.113.0/24'] },
  ] }] },
});
const badBots = rule('Block bad bots', { conditions: one('userAgent', '$contains', 'BadBot') });
const scrapers = rule('Challenge scrapers', { actions: ['blockWithChallenge'], conditions: one('path', '$startsWith', '/products') });
const login = rule('Block login abuse', { conditions: one('path', '$eq', '/login') });
const crawlers = rule('Challenge old crawlers', { actions: ['blockWithChallenge'], conditions: one('userAgent', '$contains', 'OldCrawler') });
const legacy = rule('Legacy block', { conditions: one('userAgent', '$re', '^Legacy') });
const stuffing = rule('Block credential stuffing', { conditions: one('path', '$startsWith', '/api/login') });
const LIVE: NormalRule[] = [monitor, badBots, scrapers, login, crawlers, legacy];

beforeEach(async () => {
  emu = await startTestEmulator({ seedRules: LIVE });
  project = await tempProject();
  await writeRules(project.rulesDir, LIVE);
  await git(['init', '-q']);
  await git(['add', '.']);
  await git(['commit', '-qm', 'the live rules']);
  // The pull request: files rewritten in the new order, the legacy rule's file deleted (the new
  // rule takes the file name it had; the rules directory's history still knows it by name).
  await writeRules(project.rulesDir, [
    monitor,
    { ...badBots, conditions: one('userAgent', '$contains', 'BadBot/2') },
    login,
    scrapers,
    { ...crawlers, status: 'paused' },
    stuffing,
  ]);
});

afterEach(async () => {
  await emu.close();
  await project.close();
});

/** The first screen as GitHub shows it: the alerts, the counts, every rule change, the counts per app. */
const FIRST_SCREEN = [
  '<!-- botrules-plan:default -->',
  '<h3>botrules plan</h3>',
  '<blockquote>',
  '<p>[!CAUTION]',
  "<strong>Needs a reviewer's attention: what this plan loosens or leaves active, and what it changes</strong></p>",
  '<ul>',
  '<li><strong>Legacy block</strong> removed from the files: stays live and ACTIVE — the service cannot delete rules</li>',
  '<li><strong>Challenge old crawlers</strong> (blockWithChallenge) is paused</li>',
  '<li><strong>Block credential stuffing</strong> (hardBlock) is new: the API cannot create it, so nothing is applied until it is created in the console (steps below)</li>',
  '<li>It allows, or blocks less strongly, 3 classes of requests (listed below).</li>',
  '</ul>',
  '</blockquote>',
  '<p><strong>Plan: 3 PATCH requests: 2 to update, 1 to move; 2 rules change position; 1 blocked; 1 not in the files, kept (1 removed from the files, left ACTIVE)</strong></p>',
  '<h4>Rule changes (5 rules)</h4>',
  '<table>',
  '<thead>',
  '<tr>',
  '<th>rule</th>',
  '<th>change</th>',
  '<th>before</th>',
  '<th>after</th>',
  '</tr>',
  '</thead>',
  '<tbody>',
  ...[
    ['Block login abuse', 'position', 'position 4', 'position 3'],
    ['Block bad bots', 'conditions', 'user agent containing &quot;BadBot&quot;', 'user agent containing &quot;BadBot/2&quot;'],
    ['Challenge old crawlers', 'status', 'active', 'paused'],
    ['Block credential stuffing', 'new rule: blocked, the API cannot create it (steps below)', 'not live', 'hardBlock, position 6'],
    ['Legacy block', 'file deleted: the service cannot delete rules', 'active', 'stays live and ACTIVE'],
  ].flatMap(([name, change, before, after]) => ['<tr>', `<td><strong>${name}</strong></td>`, `<td>${change}</td>`, `<td>${before}</td>`, `<td>${after}</td>`, '</tr>']),
  '</tbody>',
  '</table>',
  '<p><em>The moves shift 1 other rule by a position or more, without a PATCH of its own (see Moves below).</em></p>',
  '<table>',
  '<thead>',
  '<tr>',
  '<th>app</th>',
  ...['PATCH requests', 'to update', 'to move', 'to pause', 'rules changing position', 'blocked', 'not in the files, kept'].map((header) => `<th align="right">${header}</th>`),
  '</tr>',
  '</thead>',
  '<tbody>',
  '<tr>',
  '<td>default</td>',
  ...[3, 2, 1, 0, 2, 1, 1].map((count) => `<td align="right">${count}</td>`),
  '</tr>',
  '</tbody>',
  '</table>',
];

/** Markdown has no screens: what a reviewer sees before scrolling, counted in rendered lines. */
const SCREEN_LINES = 90;

describe('the plan comment of a typical pull request', () => {
  it('shows every rule change and what needs attention on the first screen, the long lists after', async () => {
    const plan = await run(process.execPath, [CLI_BINARY, 'plan', '--format', 'markdown', '--detailed-exitcode']);
    // A new rule the API cannot create: the plan cannot be applied (exit 1), and says why.
    expect(plan.code).toBe(1);
    const body = planCommentBody('default', plan.stdout, String(plan.code), 'https://github.com/o/r/actions/runs/1');
    const html = renderGfm(body, { unsafe: true });
    expect(html.slice(0, FIRST_SCREEN.length)).toEqual(FIRST_SCREEN);
    expect(FIRST_SCREEN.length).toBeLessThan(SCREEN_LINES);

    // Then the steps that create the new rule, the rules not in the files, the transition
    // check as two sentences, the moves, each diff collapsed, and only then the classes.
    const at = (line: string): number => html.indexOf(line);
    const order = [
      '<p>[!WARNING]',
      '<h4>Not in the rule files (1 live rule)</h4>',
      '<p><em>Transitions: no window in the 2 states between the PATCH requests.</em></p>',
      '<h4>Moves (1 PATCH carrying a position; 1 other rule shifts with them)</h4>',
      '<h4>Field changes (2 rules)</h4>',
      '<h4>Every request: 6 classes of requests are decided differently:</h4>',
    ].map(at);
    expect(order.every((index, i) => index > FIRST_SCREEN.length && (i === 0 || index > (order[i - 1] as number)))).toBe(true);
    expect(at('<h4>Every request: 6 classes of requests are decided differently:</h4>')).toBeGreaterThan(html.lastIndexOf('</details>'));
    // The pattern's class is found, with an example meeting both leaves, rather than left
    // unchecked (how an unchecked pattern and what it overlaps are named: test/diff/regions.test.ts).
    expect(html).toContain(
      '<li>requests with user agent containing &quot;BadBot&quot; and user agent matching &quot;^Legacy&quot;, for example path &quot;/&quot;, method &quot;GET&quot;, userAgent &quot;Legacy BadBot&quot;</li>',
    );
    expect(html.join('\n')).not.toContain('unchecked');
    expect(html.slice(-4)).toEqual([
      '<p><strong>Plan: 3 PATCH requests: 2 to update, 1 to move; 2 rules change position; 1 blocked; 1 not in the files, kept (1 removed from the files, left ACTIVE)</strong></p>',
      `<p><em>rules/010-rule.yaml:2: ${matrixCoverage('socketIps, path', 4, 'Allow uptime monitor').replace(/"/g, '&quot;')} [operator-matrix]</em></p>`,
      '<p>App <code>default</code>: the plan cannot be applied as it stands: the warnings above say why. <a href="https://github.com/o/r/actions/runs/1">Run log</a></p>',
      '',
    ]);
    // Nothing a reviewer cannot run (they hold no token), and no code shown as backticks.
    expect(body).not.toMatch(/`botrules plan`(?! --live)[^:]/);
    expect(html.join('\n')).not.toContain('`');
  });
});
