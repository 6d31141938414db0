import { jest } from '@jest/globals';
import fc from 'fast-check';
import { regionsWhere } from '../../src/diff/regions.js';
import type { Conditions, NormalRule } from '../../src/semantics/model.js';
import { differ, domain, editedList, oracleProblems, ruleList } from './brute-force.js';
import { normal } from '../helpers/rules.js';

const rule = (name: string, conditions: Conditions, extra: Partial<NormalRule> = {}): NormalRule => normal({
  name, description: '', status: 'active', actions: ['hardBlock'], conditions, ...extra,
});
const all = (...children: Conditions['children'][number]['children']): Conditions => ({ operator: '$and', children: [{ operator: '$and', children }] });

describe('regionsWhere', () => {
  it('finds the class a changed action affects, with a confirmed witness', () => {
    const login = all({ conditionType: 'path', operator: '$startsWith', value: '/api/login' }, { conditionType: 'userAgent', operator: '$contains', value: 'python' });
    const before = [rule('bots', login), rule('api', all({ conditionType: 'path', operator: '$startsWith', value: '/api' }), { actions: ['allow'] })];
    const after = [rule('bots', login, { actions: ['blockWithChallenge'] }), before[1] as NormalRule];
    const search = regionsWhere([before, after], differ);
    expect(search.unchecked).toEqual([]);
    expect(search.regions.map((r) => r.description)).toEqual(['requests with path starting "/api/login" and user agent containing "python"']);
    expect(search.regions[0]?.witness).toEqual({ path: '/api/login', method: 'GET', userAgent: 'python' });
  });

  it('finds the requests a reorder hands to another rule, and nothing else', () => {
    const a = rule('block api', all({ conditionType: 'path', operator: '$startsWith', value: '/api' }));
    const b = rule('allow monitor', all({ conditionType: 'header', fieldOption: 'x-monitor', operator: '$exists' }), { actions: ['allow'] });
    const search = regionsWhere([[a, b], [b, a]], differ);
    expect(search.regions.map((r) => [r.description, r.outcomes.map((o) => ('rule' in o ? o.rule : ''))])).toEqual([
      ['requests with path starting "/api" and header "x-monitor" present', ['block api', 'allow monitor']],
    ]);
  });

  it('says nothing differs for identical rule sets without searching every rule', () => {
    const rules = Array.from({ length: 2000 }, (_, i) => rule(`r${i}`, all({ conditionType: 'path', operator: '$eq', value: `/p${i}` })));
    expect(regionsWhere([rules, rules.map((r) => ({ ...r }))], differ)).toEqual({ regions: [], unchecked: [] });
  });

  it('reports a part it cannot decide instead of guessing', () => {
    const pattern = rule('pattern', all({ conditionType: 'userAgent', operator: '$re', value: ['^(?=a)b'] }));
    const search = regionsWhere([[pattern], [{ ...pattern, actions: ['allow'] }]], differ);
    expect(search.regions).toEqual([]);
    expect(search.unchecked).toEqual([{ reason: 'a regular expression the search cannot reason about: user agent matching "^(?=a)b"', rules: ['pattern'] }]);
  });

  it('names the pattern it cannot decide and what it overlaps, the pattern\'s rule first', () => {
    const bots = (value: string) => rule('bots', all({ conditionType: 'userAgent', operator: '$contains', value }));
    // A lookahead, which the search cannot write a value for (a plain "^Legacy" it can: "Legacy BadBot").
    const legacy = rule('legacy', all({ conditionType: 'userAgent', operator: '$re', value: '^(?=L)Legacy' }));
    const search = regionsWhere([[bots('BadBot'), legacy], [bots('BadBot/2'), legacy]], differ);
    expect(search.unchecked).toEqual([{
      reason: 'a regular expression the search cannot reason about: user agent matching "^(?=L)Legacy", where it overlaps user agent containing "BadBot"',
      rules: ['legacy', 'bots'],
    }]);
  });

  it('stops at its deadline and names what is left', () => {
    const rules = Array.from({ length: 50 }, (_, i) => rule(`r${i}`, all({ conditionType: 'path', operator: '$startsWith', value: `/p${i}` })));
    const search = regionsWhere([rules, [...rules].reverse()], differ, { deadline: Date.now() - 1 });
    expect(search.unchecked).toEqual([{ reason: 'the time budget ran out before these rules and the ones after them were searched', rules: ['r0', 'r49'] }]);
  });

  it('counts its set-up against the deadline: a clock that passes it while the values are gathered leaves everything unchecked', () => {
    // Wide `$in` lists (issue #41: the set-up over their values ran before the deadline was ever
    // looked at). The clock moves a second each time it is read, so the deadline, ten seconds
    // away, passes during the set-up only if the set-up reads the clock; the search alone reads
    // it once before its first step.
    const wide = (i: number) => Array.from({ length: 200 }, (_, k) => `/p/${i}/${k}`);
    const rules = Array.from({ length: 300 }, (_, i) => rule(`r${i}`, all({ conditionType: 'path', operator: '$in', value: wide(i) })));
    let now = Date.now();
    const deadline = now + 10_000;
    const clock = jest.spyOn(Date, 'now').mockImplementation(() => (now += 1000));
    try {
      const search = regionsWhere([rules, [...rules].reverse()], differ, { deadline });
      expect(search.regions).toEqual([]);
      expect(search.unchecked).toEqual([{ reason: 'the time budget ran out before these rules and the ones after them were searched', rules: ['r0', 'r299'] }]);
    } finally {
      clock.mockRestore();
    }
  });

  it('agrees with brute force over the values the rules mention (a few random cases)', () => {
    fc.assert(
      fc.property(ruleList(false).chain((before) => fc.tuple(fc.constant(before), editedList(false)(before))), ([before, after]) => {
        fc.pre(domain([before, after]).length <= 5000);
        expect(oracleProblems([before, after], regionsWhere([before, after], differ), differ)).toEqual([]);
      }),
      { numRuns: 25 },
    );
  });
});
