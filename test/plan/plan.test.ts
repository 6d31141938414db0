import { describe, expect, test } from '@jest/globals';
import { UserError } from '../../src/errors.js';
import { fingerprintRules, ruleDigest } from '../../src/plan/fingerprint.js';
import { staleness } from '../../src/apply/stale.js';
import { Plan } from '../../src/plan/plan-value.js';
import { raiseIfBlocked, raiseIfUnsafe } from '../../src/render/plan/refusals.js';
import { readReviewedPlan } from './rendered.js';
import { planDocument } from '../../src/render/plan/plan-file.js';
import { noteWords } from '../../src/render/plan/reasons.js';
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
  test('summary counts PATCHes by what they do (a move that also updates is in both), and rules that change position', () => {
    const plan = new Plan([samplePlan('pause')]);
    expect(plan.summary).toEqual({
      patches: 3, blocked: 1, unmanaged: 2, updates: 2, moves: 1, updatesAndMoves: 1, pauses: 1,
      positionChanges: 2, unmanagedKept: 1, removed: 0, removedActive: 0,
    });
    const movesOnly = planApp({ app: 'x', declared: declaredRules([rule('b'), rule('a')]), live: liveRules([rule('a'), rule('b')]), unmanaged: 'keep' });
    expect(new Plan([movesOnly.plan]).summary).toEqual(expect.objectContaining({ patches: 1, moves: 1, updates: 0 }));
  });

  test('toJSON is formatVersion 3 with typed steps', () => {
    const json = planDocument(new Plan([samplePlan()]));
    expect(Object.keys(json)).toEqual(['formatVersion', 'apps', 'summary']);
    expect(json.formatVersion).toBe(3);
    expect(json.summary).toEqual({
      patches: 2, blocked: 1, unmanaged: 2, updates: 2, moves: 1, updatesAndMoves: 1, pauses: 0, positionChanges: 2, removed: 0, removedActive: 0,
    });
    const [app] = json.apps;
    expect(Object.keys(app ?? {})).toEqual(['app', 'fingerprint', 'liveRules', 'steps', 'blocked', 'unmanaged', 'liveDigests']);
    expect(app?.liveRules).toBe(5);
    expect(app?.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    for (const step of app?.steps ?? []) expect(Object.keys(step)).toEqual(['ruleId', 'name', 'kind', 'body', 'changes']);
    expect(app?.steps.map((s) => s.kind)).toEqual(['update-and-move', 'update']);
  });

  test('a snapshot plan records when the snapshot was taken, and keeps it through JSON', () => {
    const plan = new Plan([samplePlan()], { snapshot: { takenAt: '2026-01-02T03:04:05.000Z' } });
    expect(planDocument(plan).snapshot).toEqual({ takenAt: '2026-01-02T03:04:05.000Z' });
    expect(readReviewedPlan(JSON.stringify(planDocument(plan)), 'plan.json').plan.snapshot).toEqual({ takenAt: '2026-01-02T03:04:05.000Z' });
  });

  test('what the plan loosens and its notes are saved with it (per app, and once) and read back', () => {
    const risks = [{ app: 'default', ruleId: 'id-b', name: 'b', loosens: { kind: 'paused' as const, actions: ['hardBlock' as const] } }];
    const json = planDocument(new Plan([samplePlan()]), { risks, notes: [{ kind: 'shallow-history' }] });
    expect(Object.keys(json)).toEqual(['formatVersion', 'notes', 'apps', 'summary']);
    expect(json.notes).toEqual(['The git history is shallow: rules removed before its first commit are not recognised as removed (check out with fetch-depth: 0).']);
    expect(json.apps[0]?.risks).toEqual([{ ruleId: 'id-b', name: 'b', what: '(hardBlock) is paused' }]);
    const loaded = readReviewedPlan(JSON.stringify(json), 'plan.json').review;
    // Read back, they are the file's words.
    expect(loaded.risks).toEqual([{ app: 'default', ruleId: 'id-b', name: 'b', loosens: { kind: 'saved', text: '(hardBlock) is paused' } }]);
    expect(loaded.notes.map(noteWords)).toEqual(json.notes);
  });

  test('fromJSON(toJSON) round-trips through JSON text, changes included', () => {
    const original = new Plan([samplePlan('pause')]);
    const loaded = readReviewedPlan(JSON.stringify(planDocument(original)), 'plan.json').plan;
    expect(planDocument(loaded)).toEqual(planDocument(original));
    expect(loaded.apps).toEqual(original.apps);
  });

  test.each([
    ['not JSON', '{', 'plan.json is not a botrules plan: it is not valid JSON'],
    [
      'formatVersion 1',
      '{"formatVersion":1,"apps":[],"summary":{}}',
      'plan.json is not a plan this botrules can apply: it has formatVersion 1, and this version reads formatVersion 3 (older plans do not record what each step changes',
    ],
    [
      'formatVersion 2',
      '{"formatVersion":2,"apps":[],"summary":{}}',
      'plan.json is not a plan this botrules can apply: it has formatVersion 2, and this version reads formatVersion 3 (older plans do not record what the plan loosens',
    ],
    ['a newer version', '{"formatVersion":4,"apps":[],"summary":{}}', 'it has formatVersion 4, and this version reads formatVersion 3'],
    ['no version', '[]', 'it has no formatVersion'],
  ])('a file that is %s is refused with a clear sentence', (_what, text, message) => {
    expect(thrown(() => readReviewedPlan(text, 'plan.json').plan).message).toContain(message);
  });

  type Editable = { apps: { steps: Record<string, unknown>[]; unmanaged: { ruleId: string }[] }[] };
  const edited = (edit: (json: Editable) => void): Editable => {
    const json = JSON.parse(JSON.stringify(planDocument(new Plan([samplePlan('pause')])))) as Editable;
    edit(json);
    return json;
  };

  test.each([
    ['a body that sends other values than its changes', (j: Editable) => ((j.apps[0]!.steps[1]!.body as Record<string, unknown>).status = 'active'), 'apps[0].steps[1]: the body does not send exactly the after values of its changes'],
    ['a kind that does not match', (j: Editable) => (j.apps[0]!.steps[1]!.kind = 'move'), 'apps[0].steps[1]: kind move does not match its changes (update or pause-unmanaged)'],
    ['a move without priority in its body', (j: Editable) => delete (j.apps[0]!.steps[0]!.body as Record<string, unknown>).priority, 'the body has a priority exactly when a change moves the rule'],
    ['a step with no changes', (j: Editable) => { j.apps[0]!.steps[1]!.changes = []; j.apps[0]!.steps[1]!.body = {}; }, 'apps[0].steps[1].changes must not be an empty list'],
    ['a ruleId with a slash', (j: Editable) => (j.apps[0]!.steps[1]!.ruleId = '../x'), 'apps[0].steps[1].ruleId "../x" does not have the expected form'],
    ['an unmanaged ruleId too long', (j: Editable) => (j.apps[0]!.unmanaged[0]!.ruleId = 'a'.repeat(129)), `apps[0].unmanaged[0].ruleId "${'a'.repeat(129)}" does not have the expected form`],
  ])('%s is refused and located', (_what, edit, message) => {
    expect(thrown(() => readReviewedPlan(JSON.stringify(edited(edit)), 'plan.json').plan).message).toContain(message);
  });

  test('a body with ruleId (or any unknown field) is refused and located', () => {
    const json = planDocument(new Plan([samplePlan()])) as unknown as { apps: { steps: { body: Record<string, unknown> }[] }[] };
    const step = json.apps[0]?.steps[1];
    if (step) step.body.ruleId = 'x';
    const error = thrown(() => readReviewedPlan(JSON.stringify(json), 'plan.json').plan);
    expect(error.message).toBe('plan.json is not a valid botrules plan: unknown key "ruleId" in apps[0].steps[1].body');
  });

  test('raiseIfUnsafe refuses more PATCH requests than --max-changes unless forced', () => {
    const plan = new Plan([samplePlan()]);
    expect(() => raiseIfUnsafe(plan, { maxChanges: 2, force: false })).not.toThrow();
    expect(() => raiseIfUnsafe(plan, { maxChanges: 1, force: true })).not.toThrow();
    expect(() => raiseIfUnsafe(plan, { force: false })).not.toThrow();
    expect(thrown(() => raiseIfUnsafe(plan, { maxChanges: 1, force: false })).message).toBe(
      'plan for app default has 2 PATCH requests, more than --max-changes 1 allows; review it and use --force to apply anyway; nothing was sent',
    );
    expect(thrown(() => raiseIfUnsafe(plan, { maxChanges: { default: 1 }, force: false })).message).toContain('maxChanges 1');
    expect(() => raiseIfUnsafe(plan, { maxChanges: { other: 1 }, force: false })).not.toThrow();
  });

  describe('the default change limit (no maxChanges configured)', () => {
    /** `total` live rules, of which the first `changed` get a new description. */
    function planChanging(changed: number, total: number): Plan {
      const names = Array.from({ length: total }, (_, i) => `r${i}`);
      const live = liveRules(names.map((n) => rule(n)));
      const declared = declaredRules(names.map((n, i) => rule(n, i < changed ? { description: 'changed' } : {})));
      return new Plan([planApp({ app: 'default', declared, live, unmanaged: 'keep' }).plan]);
    }

    test.each([
      [10, 10, false],
      [11, 100, false],
      [30, 100, false],
      [31, 100, true],
      [11, 20, true],
      [11, 36, true],
      [11, 37, false],
    ])('%i of %i live rules changed: refused %s', (changed, total, refused) => {
      const plan = planChanging(changed, total);
      expect(plan.summary.patches).toBe(changed);
      const check = () => raiseIfUnsafe(plan, { force: false });
      if (refused) expect(check).toThrow(UserError);
      else expect(check).not.toThrow();
      expect(() => raiseIfUnsafe(plan, { force: true })).not.toThrow();
    });

    test('the refusal names the counts and the setting; a configured maxChanges replaces the default', () => {
      const plan = planChanging(31, 100);
      expect(thrown(() => raiseIfUnsafe(plan, { force: false })).message).toBe(
        'plan for app default changes 31 of its 100 live rules (31 %), more than the default limit of 30 % ' +
          '(when more than 10 rules change); set maxChanges for the app in botrules.yaml, or --max-changes, to choose a limit; ' +
          'review it and use --force to apply anyway; nothing was sent',
      );
      expect(() => raiseIfUnsafe(plan, { maxChanges: { default: 40 }, force: false })).not.toThrow();
      expect(() => raiseIfUnsafe(plan, { maxChanges: 31, force: false })).not.toThrow();
      expect(() => raiseIfUnsafe(plan, { maxChanges: { other: 40 }, force: false })).toThrow('default limit of 30 %');
    });

    test('pausing every unmanaged rule (an empty rules directory) is refused', () => {
      const live = liveRules(Array.from({ length: 12 }, (_, i) => rule(`r${i}`)));
      const plan = new Plan([planApp({ app: 'default', declared: [], live, unmanaged: 'pause' }).plan]);
      expect(plan.summary.pauses).toBe(12);
      expect(thrown(() => raiseIfUnsafe(plan, { force: false })).message).toContain('changes 12 of its 12 live rules (100 %)');
    });
  });

  test('a plan with blocked rules cannot be applied; the error lists them with what to do', () => {
    const plan = new Plan([samplePlan()]);
    expect(plan.summary.blocked).toBe(1);
    const error = thrown(() => raiseIfBlocked(plan));
    expect(error.message).toBe('1 declared rule does not exist live, and the API cannot create rules: the plan cannot be applied; nothing was sent');
    expect(error.details).toEqual([
      'app default: "missing" (rules/10-main.yaml:32:5)',
      'Create each in the console under the name shown, paused, at the position shown; then run `botrules import --update --pin` ' +
        'to pin its ruleId, and `botrules plan` shows only the remaining field changes (docs/behaviour.md, "Adding a rule"). ' +
        'If your service accepts POST ("Create custom rule" in its API reference), `service.create: true` in botrules.yaml ' +
        'makes each a create step instead (docs/behaviour.md, "Creating and deleting rules").',
    ]);
    expect(() => raiseIfBlocked(new Plan([]))).not.toThrow();
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

  test('a stale saved plan names the changed, added and removed rules', () => {
    const plan = samplePlan();
    const now = live
      .filter((r) => r.name !== 'p')
      .map((r) => (r.name === 'a' ? { ...r, description: 'edited in the console' } : r))
      .concat([{ ...rule('fresh'), ruleId: 'id-fresh', priority: 4 }]);
    expect(staleness(plan, now)).toBe(`the live rules of app ${plan.app} changed since the plan was made: "a" (${idOf('a')}) changed, "fresh" (id-fresh) was added, "p" (${idOf('p')}) was removed.`);
    expect(staleness(plan, live)).toBeUndefined();
    expect(ruleDigest(live[0]!)).not.toBe(ruleDigest({ ...live[0]!, priority: 9 }));
  });
});
