// Rule lifetimes (src/semantics/lifetime.ts): reading the instants, where a moment falls in the
// window [activeFrom, expires), what is coming within seven days, and validate's warning.
import { lifetimePhase, liveAsLifetimesDeclare, longExpiredWarnings, parseInstant, statusAt, timeAhead, upcomingChange } from '../../src/semantics/lifetime.js';
import type { DeclaredRule, RuleLifetime } from '../../src/semantics/model.js';
import { declared, live } from '../helpers/rules.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const at = (line: number) => ({ file: 'rules/10.yaml', line, col: 14 });
const T = Date.parse('2026-12-01T00:00:00Z');
const window: RuleLifetime = { status: 'active', activeFrom: { time: T, at: at(3) }, expires: { time: T + 7 * DAY_MS, at: at(4) } };
const leaf = { operator: '$or' as const, children: [{ operator: '$and' as const, children: [{ conditionType: 'path' as const, operator: '$eq' as const, value: '/a' }] }] };

describe('parseInstant', () => {
  it.each([
    ['2026-12-01T00:00:00Z', T],
    ['2026-12-01T01:00:00+01:00', T],
    ['2026-12-01T01:00+0100', T],
    ['2026-11-30T19:00:00.000-05:00', T],
    ['2026-12-01t00:00:00z', T],
  ])('reads %s', (text, expected) => {
    expect(parseInstant(text)).toBe(expected);
  });

  it.each(['2026-12-01T00:00:00', '2026-12-01', '2026-02-30T00:00:00Z', '2026-12-01T24:00:00Z', '2026-12-01T10:60:00Z', 'tomorrow', ''])('refuses %j', (text) => {
    expect(parseInstant(text)).toBeUndefined();
  });
});

describe('the window [activeFrom, expires)', () => {
  it('opens at activeFrom and closes at expires, exactly', () => {
    expect(lifetimePhase(window, T - 1)).toBe('before');
    expect(lifetimePhase(window, T)).toBe('inside');
    expect(lifetimePhase(window, T + 7 * DAY_MS - 1)).toBe('inside');
    expect(lifetimePhase(window, T + 7 * DAY_MS)).toBe('after');
  });

  it('declares the rule paused outside it and its own status inside', () => {
    expect([T - 1, T, T + 7 * DAY_MS].map((now) => statusAt(window, now))).toEqual(['paused', 'active', 'paused']);
    expect(statusAt({ ...window, status: 'paused' }, T)).toBe('paused');
  });

  it('with one end only, is open on the other side', () => {
    expect(lifetimePhase({ status: 'active', expires: window.expires }, 0)).toBe('inside');
    expect(lifetimePhase({ status: 'active', activeFrom: window.activeFrom }, Number.MAX_SAFE_INTEGER)).toBe('inside');
  });
});

describe('upcomingChange', () => {
  it('names the activation, then the expiry, within seven days and not beyond', () => {
    expect(upcomingChange(window, T - 7 * DAY_MS)).toEqual({ change: 'activates', time: T, at: at(3) });
    expect(upcomingChange(window, T - 7 * DAY_MS - 1)).toBeUndefined();
    expect(upcomingChange(window, T)).toEqual({ change: 'expires', time: T + 7 * DAY_MS, at: at(4) });
    expect(upcomingChange(window, T - 1 + 0)).toEqual({ change: 'activates', time: T, at: at(3) });
    expect(upcomingChange(window, T + 7 * DAY_MS)).toBeUndefined();
  });

  it('says nothing for a rule whose file pauses it anyway', () => {
    expect(upcomingChange({ ...window, status: 'paused' }, T - DAY_MS)).toBeUndefined();
  });
});

describe('timeAhead', () => {
  it('rounds down to the largest whole unit', () => {
    expect(timeAhead(T + 3 * DAY_MS + 5, T)).toBe('in 3 days');
    expect(timeAhead(T + DAY_MS, T)).toBe('in 1 day');
    expect(timeAhead(T + DAY_MS - 1, T)).toBe('in 23 hours');
    expect(timeAhead(T + 60_000, T)).toBe('in 1 minute');
    expect(timeAhead(T + 59_999, T)).toBe('in less than a minute');
  });
});

describe('longExpiredWarnings', () => {
  const rule = (expires: number): DeclaredRule => ({ ...declared({ name: 'Incident', actions: ['hardBlock'], conditions: leaf }), lifetime: { status: 'active', expires: { time: expires, at: at(4) } } });

  it('warns at the expires key after thirty days, not at thirty days', () => {
    expect(longExpiredWarnings([rule(T)], T + 30 * DAY_MS)).toEqual([]);
    expect(longExpiredWarnings([rule(T)], T + 31 * DAY_MS)).toEqual([
      { ...at(4), message: 'rule "Incident" expired on 2026-12-01T00:00:00.000Z (31 days ago) and stays paused: delete it from the rule files, or move expires to keep it' },
    ]);
  });
});

describe('liveAsLifetimesDeclare (import --update)', () => {
  const expired: DeclaredRule = { ...declared({ name: 'Incident', status: 'paused', actions: ['hardBlock'], conditions: leaf }), lifetime: { status: 'active', expires: { time: T, at: at(4) } } };
  const plain = declared({ name: 'Other', actions: ['allow'], conditions: leaf });

  it('shows the declared status on the live rule a lifetime pauses, and leaves every other live rule as it is', () => {
    const liveRules = [live({ name: 'Incident', ruleId: 'r1', status: 'active', actions: ['hardBlock'], conditions: leaf }), live({ name: 'Other', ruleId: 'r2', status: 'paused', actions: ['allow'], conditions: leaf }, 1)];
    const shown = liveAsLifetimesDeclare(liveRules, [expired, plain]);
    expect(shown.map((rule) => [rule.name, rule.status])).toEqual([['Incident', 'paused'], ['Other', 'paused']]);
    expect(shown[1]).toBe(liveRules[1]);
  });
});
