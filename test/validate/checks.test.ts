// Each named check on hand-written rule sets: what it reports, where, and what it must not.
import { analyseRules, type Finding } from '../../src/validate/checks.js';
import { silenced } from '../../src/validate/silence.js';
import { loadRules } from '../../src/rules/load.js';
import type { DeclaredRule, Leaf, Rule } from '../../src/semantics/model.js';
import { declared } from '../helpers/rules.js';

let line = 0;
const rule = (name: string, groups: Leaf[][], extra: Partial<Rule> = {}, operators: ['$or' | '$and', '$and' | '$or'] = ['$or', '$and']): DeclaredRule => declared({
  name, description: '', status: 'active', actions: ['hardBlock'],
  conditions: { operator: operators[0], children: groups.map((children) => ({ operator: operators[1], children })) },
  source: { file: 'rules/a.yaml', line: (line += 10), col: 5 }, ...extra,
});
const leaf = (conditionType: Leaf['conditionType'], operator: Leaf['operator'], value?: string | string[], fieldOption?: string): Leaf =>
  ({ conditionType, operator, ...(value === undefined ? {} : { value }), ...(fieldOption === undefined ? {} : { fieldOption }) });
const ids = (findings: Finding[]) => findings.map((f) => [f.check, f.line]);

beforeEach(() => { line = 0; });

describe('shadowed-rule', () => {
  it('reports a later rule whose every request an earlier one matches, naming it and why', () => {
    const findings = analyseRules([
      rule('API', [[leaf('path', '$startsWith', '/api')]]),
      rule('API v1 posts', [[leaf('path', '$startsWith', '/api/v1'), leaf('httpMethod', '$eq', 'POST')]]),
    ]);
    expect(findings).toEqual([{ check: 'shadowed-rule', severity: 'warning', file: 'rules/a.yaml', line: 20, col: 5,
      message: 'rule "API v1 posts" can never decide: rule "API" (rules/a.yaml:10) comes first and matches every request it matches (path $startsWith "/api/v1" implies path $startsWith "/api")' }]);
  });
  it.each([
    ['CIDR containment', leaf('socketIps', '$in', ['10.0.0.0/8']), leaf('socketIps', '$in', ['10.1.0.0/16', '10.2.3.4'])],
    ['IPv6 containment', leaf('socketIps', '$in', ['2001:db8::/32']), leaf('socketIps', '$eq', '2001:db8:5::1')],
    ['set inclusion', leaf('country', '$in', ['US', 'CA', 'GB']), leaf('country', '$in', ['US', 'GB'])],
    ['identical regular expressions', leaf('userAgent', '$re', ['bot', 'spider']), leaf('userAgent', '$re', ['spider'])],
    ['suffix', leaf('domain', '$endsWith', '.example.com'), leaf('domain', '$eq', 'shop.example.com')],
    ['substring', leaf('userAgent', '$contains', 'curl'), leaf('userAgent', '$startsWith', 'curl/8')],
    ['header names ignore case', leaf('header', '$exists', undefined, 'X-Bot'), leaf('header', '$eq', '1', 'x-bot')],
    ['exclusion', leaf('country', '$notIn', ['US']), leaf('country', '$notIn', ['US', 'CA'])],
  ])('proves it by %s', (_label, earlier, later) => {
    expect(ids(analyseRules([rule('earlier', [[earlier]]), rule('later', [[later]])]))).toEqual([['shadowed-rule', 20]]);
  });
  it.each([
    ['a wider later rule', leaf('path', '$startsWith', '/api/v1'), leaf('path', '$startsWith', '/api')],
    ['a field the earlier rule does not test', leaf('path', '$eq', '/a'), leaf('httpMethod', '$eq', 'POST')],
    ['different regular expressions', leaf('userAgent', '$re', ['bot']), leaf('userAgent', '$re', ['bots?'])],
    ['ranges of different families', leaf('socketIps', '$in', ['::ffff:0:0/96']), leaf('socketIps', '$in', ['10.0.0.0/8'])],
    ['$ne, which an absent field also matches', leaf('country', '$notExists'), leaf('country', '$ne', 'US')],
    ['paused earlier rule', leaf('path', '$startsWith', '/'), leaf('path', '$eq', '/x')],
  ])('does not report %s', (label, earlier, later) => {
    const status = label === 'paused earlier rule' ? 'paused' : 'active';
    const findings = analyseRules([rule('earlier', [[earlier]], { status }), rule('later', [[later]])]).filter((f) => f.check === 'shadowed-rule');
    expect(findings).toEqual([]);
  });
  it('needs every group of a later $or rule covered', () => {
    const earlier = rule('earlier', [[leaf('path', '$eq', '/a')], [leaf('path', '$eq', '/b')]]);
    expect(ids(analyseRules([earlier, rule('covered', [[leaf('path', '$eq', '/b')], [leaf('path', '$in', ['/a'])]])]))).toEqual([['shadowed-rule', 20]]);
    expect(ids(analyseRules([earlier, rule('not covered', [[leaf('path', '$eq', '/b')], [leaf('path', '$eq', '/c')]])]))).toEqual([]);
  });
});

describe('the other checks', () => {
  it('duplicate-conditions: equal trees in any order, with the later rule also shadowed', () => {
    const a = [[leaf('path', '$eq', '/a'), leaf('httpMethod', '$eq', 'POST')]];
    const b = [[leaf('httpMethod', '$eq', 'POST'), leaf('path', '$eq', '/a')]];
    expect(analyseRules([rule('one', a), rule('two', b)]).map((f) => f.message)).toEqual([
      'rule "two" has the same conditions as rule "one" (rules/a.yaml:10)',
      'rule "two" can never decide: rule "one" (rules/a.yaml:10) comes first and has the same conditions',
    ]);
  });
  it.each([
    [leaf('path', '$eq', '/a'), leaf('path', '$eq', '/b')],
    [leaf('country', '$in', ['US', 'CA']), leaf('country', '$in', ['DE'])],
    [leaf('socketIps', '$in', ['10.0.0.0/16']), leaf('socketIps', '$notIn', ['10.0.0.0/8'])],
    [leaf('header', '$exists', undefined, 'x-a'), leaf('header', '$notExists', undefined, 'X-A')],
    [leaf('path', '$startsWith', '/api'), leaf('path', '$startsWith', '/admin')],
    [leaf('path', '$eq', '/login'), leaf('path', '$contains', 'logout')],
  ])('unsatisfiable-group: %j and %j', (a, b) => {
    const findings = analyseRules([rule('dead', [[a, b]])]);
    expect(findings.map((f) => f.check)).toEqual(['unsatisfiable-group']);
    expect(findings[0]?.message).toMatch(/^group 1 of rule "dead" can match no request: .* never hold together$/);
  });
  it('unsatisfiable-group: not for leaves that can hold together', () => {
    expect(analyseRules([rule('ok', [[leaf('path', '$startsWith', '/api'), leaf('path', '$endsWith', '.json'), leaf('country', '$ne', 'US'), leaf('country', '$notExists')]])])).toEqual([]);
  });
  it.each([
    leaf('path', '$re', ['.*']), leaf('path', '$startsWith', '/'), leaf('httpMethod', '$exists'),
  ])('catch-all: %j makes every later rule unreachable', (always) => {
    const findings = analyseRules([rule('all', [[always]]), rule('later', [[leaf('path', '$eq', '/x')]])]);
    expect(ids(findings)).toEqual([['catch-all', 10], ['shadowed-rule', 20]]);
    expect(findings[0]?.message).toContain('so none of the 1 rule after it can decide');
  });
  it('catch-all: complementary leaves in an $or group, but not a userAgent test (requests may lack one)', () => {
    const both = [leaf('header', '$exists', undefined, 'a'), leaf('header', '$notExists', undefined, 'a')];
    expect(ids(analyseRules([rule('all', [both], {}, ['$or', '$or']), rule('x', [[leaf('path', '$eq', '/')]])]))).toEqual([['catch-all', 10], ['shadowed-rule', 20]]);
    expect(analyseRules([rule('ua', [[leaf('userAgent', '$re', ['.*'])]]), rule('x', [[leaf('path', '$eq', '/')]])])).toEqual([]);
  });
  it('allow-before-block: information with an example request both rules match', () => {
    const findings = analyseRules([
      rule('Allow partners', [[leaf('socketIps', '$in', ['198.51.100.0/24'])]], { actions: ['allow'] }),
      rule('Block scrapers', [[leaf('userAgent', '$contains', 'python'), leaf('path', '$startsWith', '/products')]]),
    ]);
    expect(findings).toEqual([expect.objectContaining({ check: 'allow-before-block', severity: 'info', line: 20,
      message: 'allow rule "Allow partners" (rules/a.yaml:10) comes first and lets through requests rule "Block scrapers" would block, for example one with path "/products", method "GET", userAgent "python", ip "198.51.100.0"' })]);
  });
  it('allow-before-block: a rule scoped to a host skips the allow rules of other hosts, not those of any host or of one of its $or leaves', () => {
    const block = [[leaf('path', '$eq', '/login'), leaf('path', '$eq', '/api')], [leaf('domain', '$eq', 'a.example')]];
    const findings = analyseRules([
      rule('Allow host b', [[leaf('domain', '$eq', 'b.example')]], { actions: ['allow'] }),
      rule('Allow API', [[leaf('path', '$eq', '/api')]], { actions: ['allow'] }),
      rule('Block host a', block, {}, ['$and', '$or']),
    ]);
    expect(findings).toEqual([expect.objectContaining({ check: 'allow-before-block', line: 30,
      message: 'allow rule "Allow API" (rules/a.yaml:20) comes first and lets through requests rule "Block host a" would block, for example one with path "/api", method "GET", domain "a.example"' })]);
  });
  it('allow-before-block: not when no request matches both', () => {
    expect(analyseRules([
      rule('Allow', [[leaf('path', '$eq', '/a')]], { actions: ['allow'] }),
      rule('Block', [[leaf('path', '$eq', '/b')]]),
    ])).toEqual([]);
  });
});

describe('silencing', () => {
  const findings: Finding[] = [
    { check: 'shadowed-rule', severity: 'warning', file: 'a.yaml', line: 5, col: 5, message: 'x' },
    { check: 'catch-all', severity: 'warning', file: 'a.yaml', line: 9, col: 5, message: 'y' },
    { check: 'catch-all', severity: 'warning', file: 'b.yaml', line: 2, col: 5, message: 'z' },
  ];
  it('by a comment on the rule\'s line or the line above, or for the whole file', () => {
    const texts: Record<string, string> = {
      'a.yaml': 'rules:\n\n\n  # botrules-ignore: shadowed-rule\n  - name: x\n\n\n\n  - name: y # botrules-ignore: duplicate-conditions\n',
      'b.yaml': '# botrules-ignore-file: catch-all\nrules:\n',
    };
    expect(silenced(findings, (file) => texts[file]).map((f) => f.message)).toEqual(['y']);
  });
});

describe('the example rules', () => {
  it('have no finding but the allow-before-block information', async () => {
    const loaded = await loadRules('rules', { cwd: process.cwd() });
    expect(loaded.problems).toEqual([]);
    expect(analyseRules(loaded.rules).filter((f) => f.severity === 'warning')).toEqual([]);
  });
});

describe('empty-group', () => {
  it('an empty $and group matches every request, an empty $or group none, wherever the rule stands', () => {
    const block = { ...rule('block all', []), conditions: { operator: '$or' as const, children: [{ operator: '$and' as const, children: [] }] } };
    const none = { ...rule('none', []), conditions: { operator: '$and' as const, children: [{ operator: '$or' as const, children: [] }] } };
    expect(analyseRules([block])).toEqual([{ check: 'empty-group', severity: 'warning', file: 'rules/a.yaml', line: 10, col: 5,
      message: 'group 1 of rule "block all" is empty: an empty $and group matches every request' }]);
    expect(analyseRules([none]).map((f) => f.message)).toEqual(['group 1 of rule "none" is empty: an empty $or group matches no request']);
  });
  it('a rule with no groups at all', () => {
    expect(analyseRules([rule('no groups', [])]).map((f) => [f.check, f.message])).toEqual([['empty-group', 'rule "no groups" has no condition groups: its $or of nothing matches no request']]);
    const and = { ...rule('and of nothing', []), conditions: { operator: '$and' as const, children: [] } };
    expect(analyseRules([and]).map((f) => f.message)).toEqual(['rule "and of nothing" has no condition groups: its $and of nothing matches every request']);
  });
});
