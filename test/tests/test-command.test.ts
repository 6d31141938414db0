// `botrules test` through the CLI: the example project's tests pass, a broken expectation
// fails with the rule that decided instead and the leaf that did not match, bad test files
// are refused at FILE:LINE:COL, live snapshots, several apps, GitHub annotations and JUnit XML.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { runCli } from '../helpers/cli.js';

const RULE = (name: string, leaf: string, extra = '') =>
  `  - name: ${name}\n    actions: [hardBlock]${extra}\n    conditions:\n      operator: $or\n      children:\n        - operator: $and\n          children:\n            - ${leaf}\n`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'botrules-test-cmd-'));
  mkdirSync(path.join(dir, 'rules'));
  mkdirSync(path.join(dir, 'tests'));
  writeFileSync(path.join(dir, 'rules', 'a.yaml'), `rules:\n${RULE('Block login posts', '{ conditionType: path, operator: $eq, value: /login }')}` +
    `${RULE('Block methods', '{ conditionType: httpMethod, operator: $in, value: [DELETE] }')}`);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const tests = (body: string, file = 'a.yaml') => writeFileSync(path.join(dir, 'tests', file), body);
const cli = (argv: string[], env: Record<string, string> = {}) => runCli(argv, { cwd: dir, env });

describe('botrules test', () => {
  it('exits 1 and says which rule decided instead and which leaf did not match', async () => {
    tests('tests:\n  - name: login\n    request: { path: /login, method: DELETE }\n    expect: { rule: none }\n' +
      '  - name: delete\n    request: { path: /other, method: DELETE }\n    expect: { rule: Block login posts }\n' +
      '  - name: ok\n    request: { method: DELETE }\n    expect: { rule: Block methods, actions: [hardBlock] }\n');
    const result = await cli(['test']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('FAIL  "login" at tests/a.yaml:2:5\n      expected no rule, but "Block login posts" decided (hardBlock)\n');
    expect(result.stdout).toContain('FAIL  "delete" at tests/a.yaml:5:5\n      expected "Block login posts", but "Block methods" decided (hardBlock)\n' +
      '      "Block login posts" does not match at group 1, condition 1: path $eq "/login" (the request\'s path is "/other")\n');
    expect(result.stdout).toContain('pass  "ok"\n');
    expect(result.stdout).toContain('3 tests: 1 passed, 2 failed');
  });

  it('says when the expected rule matches too but comes later, is paused, missing, or decides with other actions', async () => {
    writeFileSync(path.join(dir, 'rules', 'b.yaml'), `rules:\n${RULE('Later', '{ conditionType: path, operator: $eq, value: /login }')}${RULE('Paused', '{ conditionType: path, operator: $eq, value: /x }', '\n    status: paused')}`);
    tests('tests:\n  - name: later\n    request: { path: /login }\n    expect: { rule: Later }\n' +
      '  - name: paused\n    request: { path: /x }\n    expect: { rule: Paused }\n' +
      '  - name: missing\n    request: { path: /x }\n    expect: { rule: Nope }\n' +
      '  - name: actions\n    request: { path: /login }\n    expect: { rule: Block login posts, actions: [allow] }\n');
    const { stdout, code } = await cli(['test']);
    expect(code).toBe(1);
    expect(stdout).toContain('"Later" matches too, but "Block login posts" comes first');
    expect(stdout).toContain('"Paused" is paused');
    expect(stdout).toContain('there is no rule named "Nope"');
    expect(stdout).toContain('"Block login posts" decided, but its actions are [hardBlock], not [allow]');
  });

  it('refuses bad test files at FILE:LINE:COL before evaluating anything', async () => {
    tests('tests:\n  - name: a\n    request: { path: /x, ip: 10.0.0.300 }\n    expect: { rule: none }\n' +
      '  - name: a\n    request: { pathh: /x }\n    expect: { rule: none }\n');
    tests('tests:\n  - name: a\n    request: {}\n    expect: { rule: none, actions: [deny] }\n', 'b.yaml');
    const result = await cli(['test']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('tests/a.yaml:3:30: ip "10.0.0.300" is not an IPv4 or IPv6 address');
    expect(result.stderr).toMatch(/tests\/a\.yaml:6:\d+: .*pathh/);
    expect(result.stderr).toMatch(/tests\/b\.yaml:4:\d+: .*deny/);
  });

  it('reports a missing tests directory and an empty one as errors, never as a pass', async () => {
    expect((await cli(['test', '--tests', 'nowhere'])).stderr).toContain('tests directory "nowhere" does not exist');
    const empty = await cli(['test']);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('no test files (*.yaml, *.yml) in "tests"');
  });

  it('writes failures as annotations on the test\'s line under GitHub Actions', async () => {
    tests('tests:\n  - name: "a: b"\n    request: { path: /login }\n    expect: { rule: none }\n');
    const result = await cli(['test'], { GITHUB_ACTIONS: 'true' });
    expect(result.stderr.split('\n')).toContain('::error file=tests/a.yaml,line=2,col=5::test "a: b" failed: expected no rule, but "Block login posts" decided (hardBlock); "Block login posts" matches at group 1, condition 1: path $eq "/login" (the request\'s path is "/login")');
  });

  it('writes well-formed JUnit XML with one testcase per test and the reasons of each failure', async () => {
    tests('tests:\n  - name: "<fail> & \\u0007"\n    request: { path: /login }\n    expect: { rule: none }\n  - name: pass\n    request: {}\n    expect: { rule: none }\n');
    const result = await cli(['test', '--format', 'junit']);
    expect(result.code).toBe(1);
    expect(XMLValidator.validate(result.stdout)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase'].includes(name) }).parse(result.stdout) as {
      testsuites: { tests: string; failures: string; testsuite: { name: string; testcase: { name: string; line: string; failure?: { message: string } }[] }[] };
    };
    expect(parsed.testsuites).toMatchObject({ tests: '2', failures: '1' });
    const [suite] = parsed.testsuites.testsuite;
    expect(suite?.name).toBe('tests/a.yaml');
    expect(suite?.testcase.map((c) => [c.name, c.line, c.failure?.message])).toEqual([
      ['<fail> & \uFFFD', '2', 'expected no rule, but "Block login posts" decided (hardBlock)'],
      ['pass', '5', undefined],
    ]);
    expect(result.stderr).toBe('2 tests: 1 passed, 1 failed\n');
  });

  it('evaluates against a live snapshot in priority order with --live', async () => {
    const conditions = { operator: '$or', children: [{ operator: '$and', children: [{ conditionType: 'path', operator: '$eq', value: '/login' }] }] };
    const liveRule = (name: string, priority: number) => ({ ruleId: `00000000-0000-4000-8000-00000000000${priority}`, name, description: '', status: 'active', actions: ['allow'], conditions, priority });
    const rules = [liveRule('Second', 1), liveRule('First', 0)];
    const { takeSnapshot } = await import('../../src/live/snapshot.js');
    writeFileSync(path.join(dir, 'live.json'), JSON.stringify(takeSnapshot([{ app: 'default', rules: rules as never }], new Date('2026-01-01T00:00:00.000Z'))));
    tests('tests:\n  - name: login\n    request: { path: /login }\n    expect: { rule: First, actions: [allow] }\n');
    const result = await cli(['test', '--live', 'live.json']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('against the live snapshot "live.json"');
    expect(result.code).toBe(0);
  });

  it('runs each test against its app\'s rules and asks for the app when the project has several', async () => {
    mkdirSync(path.join(dir, 'blog'));
    writeFileSync(path.join(dir, 'blog', 'a.yaml'), `rules:\n${RULE('Blog rule', '{ conditionType: path, operator: $eq, value: /login }')}`);
    writeFileSync(path.join(dir, 'botrules.yaml'), 'apps:\n  - { name: shop, rulesDir: rules, tokenEnv: BOTRULES_A }\n  - { name: blog, rulesDir: blog, tokenEnv: BOTRULES_B }\n');
    tests('tests:\n  - name: shop\n    app: shop\n    request: { path: /login }\n    expect: { rule: Block login posts }\n  - name: blog\n    app: blog\n    request: { path: /login }\n    expect: { rule: Blog rule }\n');
    const both = await cli(['test']);
    expect(both.stdout).toContain('2 tests: 2 passed, 0 failed');
    expect((await cli(['test', '--app', 'blog'])).stdout).toContain('1 test: 1 passed, 0 failed');
    tests('tests:\n  - name: which\n    request: { path: /login }\n    expect: { rule: none }\n', 'b.yaml');
    const missing = await cli(['test']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('tests/b.yaml:2:5: test "which" must say which app\'s rules decide it (app: one of shop, blog)');
  });

  it('compares values ignoring case only when asked', async () => {
    tests('tests:\n  - name: upper\n    request: { path: /LOGIN }\n    expect: { rule: Block login posts }\n');
    expect((await cli(['test'])).code).toBe(1);
    expect((await cli(['test', '--ignore-case'])).code).toBe(0);
  });
});
