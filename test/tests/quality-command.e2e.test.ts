// `botrules test --coverage` / `--mutate` through the CLI: the example project's figures and its
// README walk-through through the real binary; a small project's uncovered items at FILE:LINE:COL
// with the request that would cover them, every format, the thresholds, --rules, --changed-since
// against a git revision, and the usage errors.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { sarifSchemaErrors } from '../render/sarif-schema.js';

const BIN = path.resolve('bin/botrules.js');
const RULES = `rules:
  - name: Block login posts
    actions: [hardBlock]
    conditions:
      operator: $or
      children:
        - operator: $and
          children:
            - { conditionType: path, operator: $eq, value: /login }
            - { conditionType: httpMethod, operator: $eq, value: POST }
  - name: Block methods
    actions: [hardBlock]
    conditions:
      operator: $or
      children:
        - operator: $and
          children:
            - { conditionType: httpMethod, operator: $in, value: [DELETE] }
`;
const TESTS = `tests:
  - name: login post
    request: { path: /login, method: POST }
    expect: { rule: Block login posts, actions: [hardBlock] }
  - name: get
    request: { path: /login, method: GET }
    expect: { rule: none }
`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'botrules-quality-'));
  mkdirSync(path.join(dir, 'rules'));
  mkdirSync(path.join(dir, 'tests'));
  writeFileSync(path.join(dir, 'rules', 'a.yaml'), RULES);
  writeFileSync(path.join(dir, 'tests', 'a.yaml'), TESTS);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const cli = (argv: string[]) => runCli(argv, { cwd: dir });
const lines = (text: string) => text.split('\n');

describe('botrules test --coverage --mutate on the example project', () => {
  it('covers every rule, leaf, group and outcome, and lists the six surviving mutants', () => {
    const result = spawnSync(process.execPath, [BIN, 'test', '--coverage', '--mutate'], { cwd: path.resolve('.'), encoding: 'utf8', env: { PATH: process.env.PATH, NO_COLOR: '1' } });
    expect(result.status).toBe(0);
    const after = lines(result.stdout.slice(result.stdout.indexOf('\nCoverage:') + 1));
    expect(after).toEqual([
      'Coverage:',
      '  rules decided      7/7 (100.0%)',
      '  leaves both ways   20/20 (100.0%)',
      '  groups both ways   9/9 (100.0%)',
      '  outcomes           4/4 (100.0%)',
      '  outcome            allow ✓, challenge ✓, block ✓, none ✓',
      '  paused, not counted: "Challenge sign-ups outside launch markets"',
      '',
      'Mutation testing: 74 mutants; 66 killed, 6 survived, 2 equivalent (not counted)',
      'rules/10-allow-monitoring.yaml:14:66: "Allow uptime monitors": socketIps $in 203.0.113.0/24 → 203.0.113.0/23 survived',
      'rules/10-allow-monitoring.yaml:16:5: "Allow internal health checks": swapped with the next active rule "Allow verified search crawlers" survived',
      'rules/20-allow-partners.yaml:3:5: "Allow verified search crawlers": swapped with the next active rule "Allow payment provider webhooks" survived',
      'rules/20-allow-partners.yaml:26:48: "Allow payment provider webhooks": path $startsWith "/webhooks/payments/" → $contains survived',
      'rules/30-block-scrapers.yaml:26:48: "Challenge price scraping from hosting networks": path $startsWith "/products/" → $contains survived',
      'rules/30-block-scrapers.yaml:27:48: "Challenge price scraping from hosting networks": path $startsWith "/api/prices" → $contains survived',
      'Mutation score: 91.7% (66 of 72 killed)',
      '',
    ]);
  });
});

describe('botrules test --coverage', () => {
  // Over 30 s with two test runs side by side on the loaded 2-core machine.
  it('prints each uncovered item at FILE:LINE:COL with a request change that covers it', async () => {
    const result = await cli(['test', '--coverage']);
    expect(result.code).toBe(0);
    expect(lines(result.stdout).slice(4)).toEqual([
      '',
      'Coverage:',
      '  rules decided      1/2 (50.0%)',
      '  leaves both ways   1/3 (33.3%)',
      '  groups both ways   1/2 (50.0%)',
      '  outcomes           2/2 (100.0%)',
      '  outcome            block ✓, none ✓',
      'rules/a.yaml:9:15: "Block login posts": path $eq "/login" (group 1) never seen false',
      '    a test request that would cover it: test "login post" without path',
      'rules/a.yaml:11:5: "Block methods" decided none of the 1 test requests that reach it',
      '    a test request that would cover it: test "get" with method "DELETE"',
      'rules/a.yaml:16:11: "Block methods": group 1 ($and) never seen true',
      'rules/a.yaml:18:15: "Block methods": httpMethod $in ["DELETE"] (group 1) never seen true',
      '    a test request that would cover it: test "get" with method "DELETE"',
      '',
    ]);
  });

  it('exits 1 below --fail-under (rules, then leaves) and 0 at or above it', async () => {
    const below = await cli(['test', '--coverage', '--fail-under', '50,40']);
    expect(below.code).toBe(1);
    expect(lines(below.stdout)).toContain('leaf coverage 33.3% (1/3) is below --fail-under 40%');
    expect((await cli(['test', '--fail-under', '50,33'])).code).toBe(0);
    const rules = await cli(['test', '--fail-under', '51', '--format', 'json']);
    expect([rules.code, lines(rules.stderr)]).toEqual([1, ['2 tests: 2 passed, 0 failed', 'rule coverage 50.0% (1/2) is below --fail-under 51%', '']]);
  });

  it('writes JSON with every figure and SARIF with the uncovered rule as a note', async () => {
    const json = JSON.parse((await cli(['test', '--coverage', '--format', 'json'])).stdout) as { coverage: { summary: unknown; rules: { name: string; decided: number; reached: number }[] } };
    expect(json.coverage.summary).toEqual({
      rules: { covered: 1, total: 2, percent: 50 }, leaves: { covered: 1, total: 3, percent: 33.33 },
      groups: { covered: 1, total: 2, percent: 50 }, outcomes: { covered: 2, total: 2, percent: 100 },
    });
    expect(json.coverage.rules.map((rule) => [rule.name, rule.decided, rule.reached])).toEqual([['Block login posts', 1, 2], ['Block methods', 0, 1]]);
    const sarifText = (await cli(['test', '--coverage', '--mutate', '--format', 'sarif'])).stdout;
    expect(sarifSchemaErrors(JSON.parse(sarifText))).toEqual([]);
    const sarif = JSON.parse((await cli(['test', '--coverage', '--format', 'sarif'])).stdout) as { runs: { results: { ruleId: string; level: string; message: { text: string }; locations: { physicalLocation: { region: unknown } }[] }[] }[] };
    expect(sarif.runs[0]?.results.map((r) => [r.ruleId, r.level, r.message.text, r.locations[0]?.physicalLocation.region])).toEqual([
      ['uncovered-rule', 'note', 'rule "Block methods" decided none of the 1 test requests that reach it; a test request that would cover it: test "get" with method "DELETE"', { startLine: 11, startColumn: 5 }],
    ]);
  });

  it('counts only the rules named with --rules, and refuses a name no file declares', async () => {
    const only = await cli(['test', '--coverage', '--rules', 'Block methods']);
    expect(lines(only.stdout)).toContain('Coverage of 1 selected rule:');
    expect(lines(only.stdout)).toContain('  rules decided      0/1 (0.0%)');
    const unknown = await cli(['test', '--coverage', '--rules', 'Nope']);
    expect([unknown.code, lines(unknown.stderr)[0]]).toEqual([1, 'error: --rules names "Nope", which no rule file declares']);
  });

  it('with --changed-since, counts only the rules whose normal form differs at that revision', () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } });
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'base');
    // A comment and new layout change nothing; a new value changes "Block methods".
    writeFileSync(path.join(dir, 'rules', 'a.yaml'), `# edited\n${RULES.replace('[DELETE]', '[DELETE, PUT]').replace('value: /login }', 'value: "/login" }')}`);
    const result = spawnSync(process.execPath, [BIN, 'test', '--coverage', '--changed-since', 'HEAD', '--format', 'json'], { cwd: dir, encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect((JSON.parse(result.stdout) as { coverage: { only: string[] } }).coverage.only).toEqual(['Block methods']);
    const bad = spawnSync(process.execPath, [BIN, 'test', '--coverage', '--changed-since', 'no-such-branch'], { cwd: dir, encoding: 'utf8' });
    expect([bad.status, bad.stderr.split('\n')[0]]).toEqual([1, expect.stringMatching(/^error: --changed-since "no-such-branch": cannot read the rule files at that revision \(.+\)$/)]);
  });
});

describe('botrules test --mutate', () => {
  it('lists survivors at FILE:LINE:COL and exits 1 below --min-score', async () => {
    const result = await cli(['test', '--mutate', '--min-score', '71']);
    expect(result.code).toBe(1);
    expect(lines(result.stdout).slice(5)).toEqual([
      'Mutation testing: 11 mutants; 7 killed, 3 survived, 1 equivalent (not counted)',
      'rules/a.yaml:9:15: "Block login posts": path $eq "/login" dropped survived',
      'rules/a.yaml:12:15: "Block methods": action hardBlock → blockWithChallenge survived',
      'rules/a.yaml:11:5: "Block methods": paused survived',
      'Mutation score: 70.0% (7 of 10 killed)',
      'mutation score 70.0% is below --min-score 71%',
      '',
    ]);
    expect((await cli(['test', '--mutate', '--min-score', '70'])).code).toBe(0);
  });

  it('shows a progress bar on stderr only on a terminal', async () => {
    const terminal = await runCli(['test', '--mutate', '--no-color'], { cwd: dir, tty: true });
    expect(terminal.stderr).toContain('\r\u001b[2Kmutants [##############################] 11/11');
    // Line wrapping is never switched off (cli-progress did, and left it off after Ctrl-C).
    expect(terminal.stderr).not.toContain('\u001b[?7l');
    expect((await cli(['test', '--mutate'])).stderr).toBe('');
  });

  it('says what was not run under --max-mutants, in Markdown too', async () => {
    const result = await cli(['test', '--mutate', '--max-mutants', '4', '--format', 'markdown']);
    expect(lines(result.stdout)).toContain('7 of 11 mutants not run: the limit (--max-mutants) was reached');
  });

  it('puts the figures in JUnit properties', async () => {
    const { stdout } = await cli(['test', '--mutate', '--coverage', '--format', 'junit']);
    expect(lines(stdout)).toContain('      <property name="mutation.score" value="70.0%"/>');
    expect(lines(stdout)).toContain('      <property name="coverage.rules.percent" value="50.0%"/>');
  });

  it('does not run when a test fails, and says so', async () => {
    writeFileSync(path.join(dir, 'tests', 'a.yaml'), TESTS.replace('expect: { rule: none }', 'expect: { rule: Block methods }'));
    const result = await cli(['test', '--mutate']);
    expect(result.code).toBe(1);
    expect(lines(result.stdout)).toContain('Mutation testing not run: 1 of 2 tests fail; mutation testing needs a suite that passes');
  });
});

describe('usage', () => {
  it.each([
    [['test', '--format', 'json'], 'error: --format json is for --coverage and --mutate; plain test results are text, junit or sarif'],
    [['test', '--max-mutants', '3'], 'error: --max-mutants is for --coverage and --mutate'],
    [['test', '--coverage', '--live', 'live.json'], 'error: --coverage and --mutate measure the rule files; they cannot be combined with --live'],
    [['test', '--fail-under', 'most'], 'error: --fail-under takes RULES or RULES,LEAVES, percentages from 0 to 100 (e.g. --fail-under 100,80), not "most"'],
  ])('%j is refused', async (argv, message) => {
    const result = await cli(argv);
    expect([result.code, lines(result.stderr)[0]]).toEqual([1, message]);
  });
});
