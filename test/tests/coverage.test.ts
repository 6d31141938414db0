// Decision coverage on the hand-checked fixture (quality-fixture.ts): every figure below is
// worked out from the four requests, written next to it.
import { Exercise } from '../../src/validate/exercise.js';
import { formatPercent, measureCoverage, uncoveredItems } from '../../src/tests/coverage.js';
import { RULES, TESTS } from './quality-fixture.js';

const names = TESTS.map((test) => ({ name: test.name, request: test.request }));

describe('decision coverage of the fixture', () => {
  const report = measureCoverage([{ app: 'shop', rules: RULES, tests: TESTS }]);
  const byName = new Map(report.rules.map((entry) => [entry.rule.name, entry]));

  it('counts the requests each rule decided and the requests that reached it', () => {
    // T1 is decided by rule 0; T4 by rule 2 (T2 and T3 pass it); T3 by rule 3 (T2 passes it).
    expect(report.rules.map((entry) => [entry.rule.name, entry.paused, entry.decided, entry.reached])).toEqual([
      ['Block bad bots', false, 1, 4],
      ['Pause me', true, 0, 0],
      ['Allow partners', false, 1, 3],
      ['Challenge logins', false, 1, 2],
    ]);
  });

  it('counts each leaf and group true and false over the requests that reached its rule', () => {
    // Rule 0, over T1..T4: ua $contains bot is true only for T1 ("badbot"); ua $startsWith curl never;
    // path $startsWith /api for T1 and T2.
    expect(byName.get('Block bad bots')?.groups).toEqual([
      { group: 0, true: 1, false: 3, leaves: [{ true: 1, false: 3 }, { true: 0, false: 4 }] },
      { group: 1, true: 2, false: 2, leaves: [{ true: 2, false: 2 }] },
    ]);
    // Rule 2, over T2 (no ip, no header), T3 (ip, no header), T4 (both).
    expect(byName.get('Allow partners')?.groups).toEqual([{ group: 0, true: 1, false: 2, leaves: [{ true: 2, false: 1 }, { true: 1, false: 2 }] }]);
    // Rule 3, over T2 (/api/x, no method) and T3 (/login, POST).
    expect(byName.get('Challenge logins')?.groups).toEqual([{ group: 0, true: 1, false: 1, leaves: [{ true: 1, false: 1 }, { true: 1, false: 1 }] }]);
    expect(byName.get('Pause me')?.groups).toEqual([{ group: 0, true: 0, false: 0, leaves: [{ true: 0, false: 0 }] }]);
  });

  it('counts the outcomes and sums up without the paused rule', () => {
    // block T1, none T2, challenge T3, allow T4.
    expect(report.outcomes).toEqual([
      { app: 'shop', outcome: 'allow', tests: 1 },
      { app: 'shop', outcome: 'challenge', tests: 1 },
      { app: 'shop', outcome: 'block', tests: 1 },
      { app: 'shop', outcome: 'none', tests: 1 },
    ]);
    // 3 active rules decided; 7 leaves, of which 6 both ways (not ua $startsWith curl); 4 groups.
    expect(report.summary).toEqual({
      rules: { covered: 3, total: 3 }, leaves: { covered: 6, total: 7 }, groups: { covered: 4, total: 4 }, outcomes: { covered: 4, total: 4 },
    });
  });

  it('lists the one uncovered leaf with the request change that covers it', () => {
    const items = uncoveredItems(report);
    expect(items.map((item) => [item.rule.name, item.kind, item.label, item.missing, item.path])).toEqual([
      ['Block bad bots', 'leaf', 'userAgent $startsWith "curl" (group 1)', 'never seen true', ['conditions', 'children', 0, 'children', 1]],
    ]);
    expect(new Exercise(RULES, names).changeToFlip(0, { group: 0, leaf: 1 }, true)).toBe('test "T1 bad bot on the API" with userAgent "curl"');
  });

  it('restricted to some rules, counts only them and not the outcomes', () => {
    const only = measureCoverage([{ app: 'shop', rules: RULES, tests: TESTS }], { only: new Set(['Allow partners']) });
    expect(only.summary).toEqual({ rules: { covered: 1, total: 1 }, leaves: { covered: 2, total: 2 }, groups: { covered: 1, total: 1 }, outcomes: { covered: 0, total: 0 } });
    expect(only.only).toEqual(['Allow partners']);
  });
});

describe('without the partner test (T4)', () => {
  const tests = TESTS.slice(0, 3);
  const report = measureCoverage([{ app: 'shop', rules: RULES, tests }]);

  it('rule 2 decides nothing, its header leaf and group are never true, and allow is not exercised', () => {
    // Leaves both ways: rule 0 two of three (as before); rule 2, over T2 and T3, only the address
    // (T2 has none, T3 has one); rule 3 both. 2 + 1 + 2 = 5.
    expect(report.summary).toEqual({
      rules: { covered: 2, total: 3 }, leaves: { covered: 5, total: 7 }, groups: { covered: 3, total: 4 }, outcomes: { covered: 3, total: 4 },
    });
    expect(uncoveredItems(report).map((item) => `${item.rule.name}: ${item.label} ${item.missing}`)).toEqual([
      'Block bad bots: userAgent $startsWith "curl" (group 1) never seen true',
      'Allow partners: rule decided none of the 2 test requests that reach it',
      'Allow partners: group 1 ($and) never seen true',
      'Allow partners: header "x-key" $exists (group 1) never seen true',
    ]);
  });

  it('suggests the smallest change: T3 already comes from the partner network, so only the header', () => {
    expect(new Exercise(RULES, tests.map((test) => ({ name: test.name, request: test.request }))).changeToDecide(2)).toBe('test "T3 login post from the partner network" with header "x-key": "x"');
  });
});

describe('percentages', () => {
  it('show one decimal and never round up to 100 %', () => {
    expect([formatPercent(100), formatPercent(800 / 9), formatPercent(99.96), formatPercent(0)]).toEqual(['100.0%', '88.9%', '99.9%', '0.0%']);
  });
});
