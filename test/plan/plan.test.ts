import { describe, expect, test } from '@jest/globals';
import { UserError } from '../../src/errors.js';
import { changedSince, fingerprintRules, ruleDigest } from '../../src/plan/fingerprint.js';
import { Plan } from '../../src/plan/plan.js';
import { planApp } from '../../src/plan/planner.js';
import type { AppPlan } from '../../src/plan/types.js';
import { declaredRules, idOf, liveRules, rule } from './fixtures.js';

const live = liveRules([rule('a'), rule('b'), rule('c'), rule('u', { status: 'active' }), rule('p', { status: 'paused' })]);
const declared = declaredRules([rule('b', { description: 'new' }), rule('a'), rule('c', { status: 'paused' }), rule('missing')]);

function samplePlan(unmanaged: 'keep' | 'pause' = 'keep'): AppPlan {
  return planApp({ app: 'default', declared, live, unmanaged }).plan;
}

function thrown(fn: () => unknown): UserError {
  try {
    fn();
  } catch (err) {
    if (err instanceof UserError) return err;
    throw err;
  }
  throw new Error('expected a UserError');
}

describe('Plan', () => {
  test('summary counts each PATCH once: updates (incl. move+change), pure moves, pauses', () => {
    const plan = new Plan([samplePlan('pause')]);
    expect(plan.summary).toEqual({ patches: 3, blocked: 1, unmanaged: 2, updates: 2, moves: 0, pauses: 1, unmanagedKept: 1 });
    const movesOnly = planApp({ app: 'x', declared: declaredRules([rule('b'), rule('a')]), live: liveRules([rule('a'), rule('b')]), unmanaged: 'keep' });
    expect(new Plan([movesOnly.plan]).summary).toEqual(expect.objectContaining({ patches: 1, moves: 1, updates: 0 }));
  });

  test('toJSON is the contract format without display extras', () => {
    const json = new Plan([samplePlan()]).toJSON();
    expect(Object.keys(json)).toEqual(['formatVersion', 'apps', 'summary']);
    expect(json.formatVersion).toBe(1);
    expect(json.summary).toEqual({ patches: 2, blocked: 1, unmanaged: 2 });
    const [app] = json.apps;
    expect(Object.keys(app ?? {})).toEqual(['app', 'fingerprint', 'steps', 'blocked', 'unmanaged', 'liveDigests']);
    expect(app?.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    for (const step of app?.steps ?? []) expect(Object.keys(step)).toEqual(['ruleId', 'name', 'reasons', 'body']);
    expect(JSON.stringify(json)).not.toContain('display');
  });

  test('fromJSON(toJSON) round-trips through JSON text', () => {
    const original = new Plan([samplePlan('pause')]);
    const loaded = Plan.parse(JSON.stringify(original), 'plan.json');
    expect(loaded.toJSON()).toEqual(original.toJSON());
    expect(loaded.apps[0]?.steps.every((s) => s.display === undefined)).toBe(true);
  });

  test.each([
    ['not JSON', '{', 'plan.json is not a botrules plan: it is not valid JSON'],
    ['another format version', '{"formatVersion":2,"apps":[],"summary":{}}', 'plan.json is not a plan this botrules can apply: it has formatVersion 2'],
    ['no version', '[]', 'it has no formatVersion'],
  ])('a file that is %s is refused with a clear sentence', (_what, text, message) => {
    expect(thrown(() => Plan.parse(text, 'plan.json')).message).toContain(message);
  });

  test('a body with ruleId (or any unknown field) is refused and located', () => {
    const json = new Plan([samplePlan()]).toJSON() as unknown as { apps: { steps: { body: Record<string, unknown> }[] }[] };
    const step = json.apps[0]?.steps[1];
    if (step) step.body.ruleId = 'x';
    const error = thrown(() => Plan.fromJSON(json, 'plan.json'));
    expect(error.message).toBe('plan.json is not a valid botrules plan: apps[0].steps[1].body: unexpected property "ruleId"');
  });

  test('raiseIfUnsafe refuses more PATCH requests than --max-changes unless forced', () => {
    const plan = new Plan([samplePlan()]);
    expect(() => plan.raiseIfUnsafe({ maxChanges: 2, force: false })).not.toThrow();
    expect(() => plan.raiseIfUnsafe({ maxChanges: 1, force: true })).not.toThrow();
    expect(() => plan.raiseIfUnsafe({ force: false })).not.toThrow();
    expect(thrown(() => plan.raiseIfUnsafe({ maxChanges: 1, force: false })).message).toBe(
      'plan for app default has 2 PATCH requests, more than --max-changes 1 allows; review it and use --force to apply anyway',
    );
    expect(thrown(() => plan.raiseIfUnsafe({ maxChanges: { default: 1 }, force: false })).message).toContain('maxChanges 1');
    expect(() => plan.raiseIfUnsafe({ maxChanges: { other: 1 }, force: false })).not.toThrow();
  });

  test('a plan with blocked rules cannot be applied; the error lists them with what to do', () => {
    const plan = new Plan([samplePlan()]);
    expect(plan.canApply()).toBe(false);
    const error = thrown(() => plan.raiseIfBlocked());
    expect(error.message).toContain('1 declared rule does not exist live');
    expect(error.details).toEqual([expect.stringMatching(/^app default: "missing" \(rules\/10-main\.yaml:32:5\): .*botrules import/)]);
    expect(new Plan([]).canApply()).toBe(true);
    expect(new Plan([]).hasChanges()).toBe(false);
  });
});

describe('fingerprints', () => {
  test('cosmetic reordering keeps the fingerprint; a move or an edit changes it', () => {
    const base = fingerprintRules(live);
    const reversedLeaves = live.map((r) => ({ ...r, conditions: { ...r.conditions, children: r.conditions.children.map((g) => ({ ...g, children: [...g.children].reverse() })) } }));
    expect(fingerprintRules(reversedLeaves)).toBe(base);
    expect(fingerprintRules([...live].reverse())).toBe(base);
    const swapped = live.map((r, i) => ({ ...r, priority: i === 0 ? 1 : i === 1 ? 0 : i }));
    expect(fingerprintRules(swapped)).not.toBe(base);
    expect(fingerprintRules(live.map((r, i) => (i === 2 ? { ...r, description: 'edited' } : r)))).not.toBe(base);
  });

  test('changedSince names changed, added and removed rules', () => {
    const plan = samplePlan();
    const now = live
      .filter((r) => r.name !== 'p')
      .map((r) => (r.name === 'a' ? { ...r, description: 'edited in the console' } : r))
      .concat([{ ...rule('fresh'), ruleId: 'id-fresh', priority: 4 }]);
    expect(changedSince(plan, now)).toEqual({
      changed: [`"a" (${idOf('a')})`],
      added: ['"fresh" (id-fresh)'],
      removed: [`"p" (${idOf('p')})`],
    });
    expect(changedSince(plan, live)).toEqual({ changed: [], added: [], removed: [] });
    expect(ruleDigest(live[0]!)).not.toBe(ruleDigest({ ...live[0]!, priority: 9 }));
  });
});
