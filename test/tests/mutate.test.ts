// Mutation testing on the hand-checked fixture (quality-fixture.ts): each mutant, in the order
// they are made, with the test that kills it or "survived", worked out from the four requests.
import { provedEquivalent } from '../../src/engine/test-quality.js';
import { mutantsOf } from '../../src/tests/mutants.js';
import { runMutants } from '../../src/tests/mutate.js';
import type { DeclaredRule, Leaf } from '../../src/semantics/model.js';
import { RULES, TESTS } from './quality-fixture.js';
import { applyMutant, declared } from '../helpers/rules.js';

describe('the mutants of the fixture', () => {
  const mutants = mutantsOf(RULES);
  const report = runMutants([{ app: 'shop', rules: RULES, tests: TESTS, mutants }]);
  const outcome = (status: string, killedBy?: string) => (killedBy === undefined ? status : `${status} by ${killedBy.slice(0, 2)}`);

  it('are made in a fixed order, each with its verdict', () => {
    expect(report.results.map((result) => `${result.rule.name}: ${result.mutant.description}: ${outcome(result.status, result.killedBy)}`)).toEqual([
      // T1 expects hardBlock; paused, T1 falls through to no rule.
      'Block bad bots: action hardBlock → blockWithChallenge: killed by T1',
      'Block bad bots: paused: killed by T1',
      // The next active rule ("Pause me" is paused): T1 does not match it.
      'Block bad bots: swapped with the next active rule "Allow partners": survived',
      // $or of the groups: T2 (/api/x) now matches.
      'Block bad bots: conditions $and → $or: killed by T2',
      'Block bad bots: group 1 dropped: killed by T2',
      // "badbot" contains bot but does not start with curl.
      'Block bad bots: group 1 $or → $and: killed by T1',
      'Block bad bots: userAgent $contains "bot" dropped: killed by T1',
      'Block bad bots: userAgent $contains "bot" → $startsWith: killed by T1',
      // No request has a user agent with curl in it.
      'Block bad bots: userAgent $startsWith "curl" dropped: survived',
      'Block bad bots: userAgent $startsWith "curl" → $contains: survived',
      // Group 2 alone: only T1 and T2 are on /api, and group 1 tells them apart already.
      'Block bad bots: group 2 dropped: survived',
      'Block bad bots: path $startsWith "/api" → $contains: survived',
      // T4 falls through to no rule.
      'Allow partners: paused: killed by T4',
      'Allow partners: swapped with the next active rule "Challenge logins": survived',
      // $or: T3 (from 10.1.1.1, no key) now matches.
      'Allow partners: group 1 $and → $or: killed by T3',
      'Allow partners: socketIps $in ["10.0.0.0/8"] dropped: survived',
      'Allow partners: socketIps $in ["10.0.0.0/8"] → $notIn: killed by T4',
      'Allow partners: socketIps $in 10.0.0.0/8 → 10.0.0.0/7: survived',
      'Allow partners: socketIps $in 10.0.0.0/8 → 10.0.0.0/9: survived',
      'Allow partners: header "x-key" $exists dropped: killed by T3',
      // T3 does not say which actions it expects.
      'Challenge logins: action blockWithChallenge → allow: survived',
      'Challenge logins: paused: killed by T3',
      'Challenge logins: group 1 $and → $or: survived',
      'Challenge logins: path $eq "/login" dropped: survived',
      'Challenge logins: path $eq "/login" → $ne: killed by T3',
      'Challenge logins: httpMethod $eq "POST" dropped: survived',
      'Challenge logins: httpMethod $eq "POST" → $ne: killed by T3',
    ]);
  });

  it('sum up to a score of 14 of 27', () => {
    expect(report.summary).toEqual({ total: 27, killed: 14, survived: 13, equivalent: 0, notRun: 0, score: (100 * 14) / 27 });
  });

  it('stop at --max-mutants and at the time budget, saying so', () => {
    const limited = runMutants([{ app: 'shop', rules: RULES, tests: TESTS, mutants }], { maxMutants: 5 });
    expect([limited.summary.notRun, limited.stoppedBy, limited.results.slice(5).every((r) => r.status === 'not-run')]).toEqual([22, 'max-mutants', true]);
    let clock = 0;
    const timed = runMutants([{ app: 'shop', rules: RULES, tests: TESTS, mutants }], { deadline: 3, now: () => clock++ });
    expect([timed.summary.notRun, timed.stoppedBy]).toEqual([23, 'time']);
  });

  it('apply to a copy of the rules, leaving the original as it was', () => {
    const swapped = applyMutant(RULES, mutants[2] as (typeof mutants)[number]);
    expect(swapped.map((rule) => rule.name)).toEqual(['Allow partners', 'Pause me', 'Block bad bots', 'Challenge logins']);
    expect(RULES.map((rule) => rule.name)).toEqual(['Block bad bots', 'Pause me', 'Allow partners', 'Challenge logins']);
  });
});

describe('equivalent mutants', () => {
  const leaf = (conditionType: Leaf['conditionType'], operator: Leaf['operator'], value?: string | string[]): Leaf => ({ conditionType, operator, ...(value === undefined ? {} : { value }) });
  const rule = (name: string, leaves: Leaf[], operator: '$and' | '$or' = '$and'): DeclaredRule => declared({
    name, description: '', status: 'active', actions: ['allow'], source: { file: 'r.yaml', line: 1, col: 1 },
    conditions: { operator: '$and', children: [{ operator, children: leaves }] },
  });

  it('are proved for disjoint adjacent rules, an implied leaf and a range inside another of its list, and not counted', () => {
    const rules = [
      rule('asn 1', [leaf('socketIpASN', '$eq', '1'), leaf('country', '$eq', 'US')]),
      rule('asn 2', [leaf('socketIpASN', '$eq', '2'), leaf('socketIps', '$in', ['10.1.0.0/16', '10.0.0.0/8'])]),
      rule('ua', [leaf('userAgent', '$startsWith', 'curl/8'), leaf('userAgent', '$startsWith', 'curl')]),
    ];
    const report = runMutants([{ app: 'a', rules, tests: [], mutants: mutantsOf(rules) }], { equivalence: provedEquivalent });
    const equivalent = report.results.filter((result) => result.status === 'equivalent').map((result) => `${result.rule.name}: ${result.mutant.description}: ${result.equivalence ?? ''}`);
    expect(equivalent).toEqual([
      'asn 1: swapped with the next active rule "asn 2": no request matches both rules: socketIpASN $eq "1" and socketIpASN $eq "2" never hold together',
      'asn 2: socketIps $in 10.1.0.0/16 → 10.1.0.0/15: 10.1.0.0/16 and 10.1.0.0/15 both lie within 10.0.0.0/8, also in the list',
      'asn 2: socketIps $in 10.1.0.0/16 → 10.1.0.0/17: 10.1.0.0/16 and 10.1.0.0/17 both lie within 10.0.0.0/8, also in the list',
      'ua: userAgent $startsWith "curl" dropped: userAgent $startsWith "curl/8" implies userAgent $startsWith "curl" in the same $and group',
    ]);
    expect(report.summary.equivalent).toBe(4);
    expect(report.summary.killed + report.summary.survived).toBe(report.summary.total - 4);
  });

  it('use the path only where the analysis\'s assumption (a path starting with "/") plays no part', () => {
    // Two exact paths: a request matches at most one, with or without a path. "/" as a prefix
    // holds for every path the analysis imagines, not for a test request without one.
    const rules = [rule('p1', [leaf('path', '$eq', '/a')]), rule('p2', [leaf('path', '$eq', '/b')]), rule('ua', [leaf('userAgent', '$eq', 'x'), leaf('path', '$startsWith', '/')])];
    const report = runMutants([{ app: 'a', rules, tests: [], mutants: mutantsOf(rules) }], { equivalence: provedEquivalent });
    expect(report.results.filter((result) => result.status === 'equivalent').map((result) => `${result.rule.name}: ${result.mutant.description}`)).toEqual([
      'p1: swapped with the next active rule "p2"',
    ]);
  });

  it('know that an IPv6 range outside the IPv4-mapped block holds no IPv4 address', () => {
    // v6 and v4 never both; v4 and the IPv4-mapped block may, depending on how the service maps.
    const rules = [rule('v6', [leaf('socketIps', '$in', ['2001:db8::/32'])]), rule('v4', [leaf('socketIps', '$in', ['203.0.113.0/24'])]), rule('mapped', [leaf('socketIps', '$in', ['::ffff:0:0/96'])])];
    const report = runMutants([{ app: 'a', rules, tests: [], mutants: mutantsOf(rules) }], { equivalence: provedEquivalent });
    expect(report.results.filter((result) => result.mutant.kind === 'swap').map((result) => `${result.rule.name}: ${result.status}`)).toEqual(['v6: equivalent', 'v4: survived']);
  });
});
