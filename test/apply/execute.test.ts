// The step scheduler on its own, against an in-memory RulesApi that records what overlaps:
// moves run alone and in order, field-only updates overlap up to the limit, and after a
// failure nothing new starts. (End-to-end behaviour over HTTPS is in test/cli/apply*.)
import { executeSteps } from '../../src/apply/execute.js';
import type { RulesApi } from '../../src/api/types.js';
import type { LiveRule, PatchBody } from '../../src/semantics/model.js';
import type { PlanStep } from '../../src/plan/types.js';

interface Call { ruleId: string; body: PatchBody; overlapping: string[] }

/** A RulesApi whose PATCHes take a few event-loop turns and record which others were in flight. */
function recordingApi(failFor: Set<string> = new Set()) {
  const calls: Call[] = [];
  const inFlight = new Set<string>();
  let maxInFlight = 0;
  const api: RulesApi = {
    listRules: async () => [],
    patchRule: async (ruleId, body) => {
      calls.push({ ruleId, body, overlapping: [...inFlight] });
      inFlight.add(ruleId);
      maxInFlight = Math.max(maxInFlight, inFlight.size);
      for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
      inFlight.delete(ruleId);
      if (failFor.has(ruleId)) throw new Error(`PATCH ${ruleId} failed with status 500`);
      return { ruleId, priority: body.priority ?? 0 } as LiveRule;
    },
  };
  return { api, calls, maxInFlight: () => maxInFlight };
}

const field = (ruleId: string): PlanStep => ({
  ruleId,
  name: ruleId,
  kind: 'update',
  body: { description: ruleId },
  changes: [{ field: 'description', before: '', after: ruleId }],
});
const move = (ruleId: string, priority: number): PlanStep => ({
  ruleId,
  name: ruleId,
  kind: 'move',
  body: { priority },
  changes: [{ field: 'priority', before: priority + 1, after: priority }],
});

describe('executeSteps', () => {
  it('runs field-only updates concurrently up to the limit', async () => {
    const rec = recordingApi();
    const steps = ['a', 'b', 'c', 'd', 'e', 'f'].map(field);
    const outcomes = await executeSteps(steps, rec.api, { concurrency: 3 });
    expect(outcomes.map((o) => o.state)).toEqual(Array(6).fill('applied'));
    expect(rec.maxInFlight()).toBe(3);
  });

  it('with concurrency 1 never overlaps', async () => {
    const rec = recordingApi();
    await executeSteps(['a', 'b', 'c'].map(field), rec.api, { concurrency: 1 });
    expect(rec.maxInFlight()).toBe(1);
  });

  it('runs each move alone and in plan order', async () => {
    const rec = recordingApi();
    const steps = [field('a'), field('b'), move('m1', 0), field('c'), move('m2', 3), field('d'), field('e')];
    await executeSteps(steps, rec.api, { concurrency: 4 });
    expect(rec.calls.map((c) => c.ruleId)).toEqual(['a', 'b', 'm1', 'c', 'm2', 'd', 'e']);
    for (const call of rec.calls) {
      if (call.ruleId.startsWith('m')) expect(call.overlapping).toEqual([]);
    }
    // Nothing started while a move was in flight.
    expect(rec.calls.every((c) => !c.overlapping.some((id) => id.startsWith('m')))).toBe(true);
    // The field-only updates of one batch did overlap.
    expect(rec.calls.find((c) => c.ruleId === 'b')?.overlapping).toEqual(['a']);
  });

  it('in an order the transition check chose, every step that changes behaviour runs alone; name and description updates still overlap', async () => {
    const rec = recordingApi();
    const narrow = (ruleId: string): PlanStep => ({ ruleId, name: ruleId, kind: 'update', body: { status: 'paused' }, changes: [{ field: 'status', before: 'active', after: 'paused' }] });
    const steps = [field('a'), field('b'), narrow('s1'), narrow('s2'), field('c'), field('d')];
    await executeSteps(steps, rec.api, { concurrency: 4, ordered: true });
    expect(rec.calls.map((c) => c.ruleId)).toEqual(['a', 'b', 's1', 's2', 'c', 'd']);
    expect(rec.calls.filter((c) => c.ruleId.startsWith('s') || c.overlapping.some((id) => id.startsWith('s'))).map((c) => c.overlapping)).toEqual([[], []]);
    expect(rec.calls.find((c) => c.ruleId === 'b')?.overlapping).toEqual(['a']);
    expect(rec.calls.find((c) => c.ruleId === 'd')?.overlapping).toEqual(['c']);
    // Without the check's order the same status updates overlap.
    const free = recordingApi();
    await executeSteps(steps, free.api, { concurrency: 4 });
    expect(free.maxInFlight()).toBe(4);
  });

  it('after a failure starts nothing new and reports applied / failed / not attempted', async () => {
    const rec = recordingApi(new Set(['b']));
    const steps = [field('a'), field('b'), field('c'), field('d'), move('m', 0), field('e')];
    const seen: string[] = [];
    const outcomes = await executeSteps(steps, rec.api, { concurrency: 2, onOutcome: (o) => seen.push(`${o.step.ruleId}:${o.state}`) });
    expect(outcomes.map((o) => `${o.step.ruleId}:${o.state}`)).toEqual([
      'a:applied', 'b:failed', 'c:applied', 'd:not-attempted', 'm:not-attempted', 'e:not-attempted',
    ]);
    // c was already in flight when b failed: it finished; d, m and e never started.
    expect(rec.calls.map((c) => c.ruleId)).toEqual(['a', 'b', 'c']);
    expect(seen.sort()).toEqual(['a:applied', 'b:failed', 'c:applied']);
    const failed = outcomes[1];
    expect(failed?.state === 'failed' && failed.error.message).toBe('PATCH b failed with status 500');
  });

  it('a failed move stops the steps after it', async () => {
    const rec = recordingApi(new Set(['m']));
    const outcomes = await executeSteps([move('m', 2), field('a')], rec.api, { concurrency: 4 });
    expect(outcomes.map((o) => o.state)).toEqual(['failed', 'not-attempted']);
    expect(rec.calls).toHaveLength(1);
  });
});
