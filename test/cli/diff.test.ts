// `botrules diff OLD NEW` through the real binary (docs/behaviour.md, "Exhaustive behaviour
// diff"): two rules directories, a rule file, a live snapshot; each format; exit 0 when no
// request is decided differently, 2 when some class is, 1 on bad input.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import type { NormalRule, Rule } from '../../src/semantics/model.js';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator } from '../helpers/emulator.js';
import { lettered, tempProject, writeRules, type Project } from '../apply/fixtures.js';

let project: Project;
const [a, b] = lettered(2) as [NormalRule, NormalRule];
const login: Rule = {
  name: 'Scrapers on login', description: '', status: 'active', actions: ['hardBlock'],
  conditions: { operator: '$and', children: [{ operator: '$and', children: [
    { conditionType: 'path', operator: '$startsWith', value: '/api/login' },
    { conditionType: 'userAgent', operator: '$contains', value: 'python' },
  ] }] },
};

beforeEach(async () => {
  project = await tempProject();
  await writeRules(path.join(project.dir, 'old'), [login, a, b]);
  await writeRules(path.join(project.dir, 'new'), [{ ...login, actions: ['blockWithChallenge'] }, a, b]);
});

afterEach(async () => {
  await project.close();
});

const run = (argv: string[], env: Record<string, string> = {}) => runCli(argv, { cwd: project.dir, env });

describe('botrules diff', () => {
  it('prints each class decided differently with an example, and exits 2', async () => {
    const result = await run(['diff', 'old', 'new']);
    expect(result.code).toBe(2);
    expect(result.stdout.split('\n')).toEqual([
      'Comparing old (3 rules) with new (3 rules).',
      'Every request: 1 class of requests is decided differently:',
      '  ! weaker: "Scrapers on login" (hardBlock) → "Scrapers on login" (blockWithChallenge)',
      '      requests with path starting "/api/login" and user agent containing "python", for example path "/api/login", method "GET", userAgent "python"',
      '',
    ]);
  });

  it('exits 0 when the two rule sets decide every request alike, a reorder of disjoint rules included', async () => {
    // "Home" tests a path "Scrapers on login" never matches, so their order does not matter.
    const home: Rule = { ...a, name: 'Home', conditions: { operator: '$and', children: [{ operator: '$and', children: [{ conditionType: 'path', operator: '$eq', value: '/home' }] }] } };
    await writeRules(path.join(project.dir, 'old'), [login, home, a, b]);
    await writeRules(path.join(project.dir, 'new'), [home, { ...login, description: 'reworded' }, a, b]);
    const result = await run(['diff', 'old', 'new']);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')).toEqual(['Comparing old (4 rules) with new (4 rules).', 'Every request: none is decided differently', '']);
  });

  it('writes JSON and Markdown', async () => {
    const json = await run(['diff', 'old', 'new', '--format', 'json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual({
      formatVersion: 1, old: 'old (3 rules)', new: 'new (3 rules)', app: 'default',
      changes: [{
        risk: 'weakens',
        before: { rule: 'Scrapers on login', actions: ['hardBlock'] },
        after: { rule: 'Scrapers on login', actions: ['blockWithChallenge'] },
        classes: [{ description: 'requests with path starting "/api/login" and user agent containing "python"', example: { path: '/api/login', method: 'GET', userAgent: 'python' } }],
      }],
      unchecked: [],
    });
    const markdown = await run(['diff', 'old', 'new', '--format', 'markdown']);
    expect(markdown.stdout.split('\n')).toEqual([
      '### botrules diff',
      '',
      'Comparing old (3 rules) with new (3 rules).',
      '',
      '#### Every request: 1 class of requests is decided differently:',
      '',
      '- **weaker: &quot;Scrapers on login&quot; (hardBlock) → &quot;Scrapers on login&quot; (blockWithChallenge)**',
      '  - requests with path starting &quot;/api/login&quot; and user agent containing &quot;python&quot;, for example path &quot;/api/login&quot;, method &quot;GET&quot;, userAgent &quot;python&quot;',
      '',
      '',
    ]);
  });

  it('names a pattern it cannot decide, and exits 2 rather than claim no difference', async () => {
    const pattern: Rule = { ...a, name: 'Pattern', conditions: { operator: '$and', children: [{ operator: '$and', children: [{ conditionType: 'userAgent', operator: '$re', value: ['^(?=x)y'] }] }] } };
    await writeRules(path.join(project.dir, 'old'), [pattern]);
    await writeRules(path.join(project.dir, 'new'), [{ ...pattern, actions: ['allow'] }]);
    const result = await run(['diff', 'old', 'new']);
    expect(result.code).toBe(2);
    expect(result.stdout.split('\n')).toEqual([
      'Comparing old (1 rule) with new (1 rule).',
      'Every request: none is decided differently in the parts checked (some parts unchecked, listed below)',
      '  ? unchecked: a regular expression the search cannot reason about: user agent matching "^(?=x)y" (rule "Pattern")',
      '',
    ]);
  });

  it('reads one rule file, and refuses a bad one at its line before comparing', async () => {
    await writeFile(path.join(project.dir, 'one.yaml'), stringify({ rules: [login] }));
    expect((await run(['diff', 'one.yaml', 'new'])).stdout.split('\n')[0]).toBe('Comparing one.yaml (1 rule) with new (3 rules).');
    await writeFile(path.join(project.dir, 'bad.yaml'), 'rules:\n  - name: x\n    actions: [explode]\n');
    const bad = await run(['diff', 'bad.yaml', 'new']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^bad\.yaml:\d+:\d+: /m);
    const missing = await run(['diff', 'nowhere', 'new']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot read nowhere: it does not exist');
  });

  it('compares a live snapshot with the rule files, with no token', async () => {
    const emu = await startTestEmulator({ seedRules: [login, a, b] });
    try {
      await mkdir(path.join(project.dir, 'snap'), { recursive: true });
      expect((await run(['live', '--out', 'live.json', '--dir', 'old'], emu.env)).code).toBe(0);
    } finally {
      await emu.close();
    }
    const result = await run(['diff', 'live.json', 'new']);
    expect(result.code).toBe(2);
    expect(result.stdout.split('\n')[0]).toMatch(/^Comparing live\.json, app "default" at \S+ \(3 rules\) with new \(3 rules\)\.$/);
    expect(result.stdout.split('\n')[2]).toBe('  ! weaker: "Scrapers on login" (hardBlock) → "Scrapers on login" (blockWithChallenge)');
  });
});
