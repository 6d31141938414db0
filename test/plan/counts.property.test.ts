// The summary's counts against the steps they summarise, for random plans: each count is
// recomputed here from the steps (and, for positions, by running them on a model server),
// and the summary line of every format says exactly those numbers.
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { Plan } from '../../src/plan/plan-value.js';
import { planDocument } from '../../src/render/plan/plan-file.js';
import { planApp } from '../../src/plan/planner.js';
import { simulateSteps } from '../../src/semantics/list-move.js';
import { fieldChanges } from '../../src/plan/types.js';
import { summaryLine } from '../../src/render/plan/describe.js';
import { rendered } from './rendered.js';
import { scenarios } from './scenarios.js';
import { declared as declaredRule, live as liveRule } from '../helpers/rules.js';

describe('plan summary counts', () => {
  test('equal what the typed steps do, and what running them does to positions', () => {
    fc.assert(
      fc.property(scenarios({ maxRules: 40 }), (s) => {
        const planned = planApp({ app: 'default', declared: s.declared, live: s.live, unmanaged: s.policy }).plan;
        const plan = new Plan([planned]);
        const steps = plan.apps[0]!.steps;
        const after = simulateSteps(s.live, steps);
        const liveIndex = new Map([...s.live].sort((a, b) => a.priority - b.priority).map((rule, index) => [rule.ruleId, index]));
        expect(plan.summary).toMatchObject({
          patches: steps.length,
          updates: steps.filter((step) => step.kind !== 'pause-unmanaged' && fieldChanges(step).length > 0).length,
          moves: steps.filter((step) => step.body.priority !== undefined).length,
          updatesAndMoves: steps.filter((step) => step.body.priority !== undefined && fieldChanges(step).length > 0).length,
          pauses: steps.filter((step) => step.kind === 'pause-unmanaged').length,
          positionChanges: after.filter((rule, index) => liveIndex.get(rule.ruleId) !== index).length,
          unmanaged: s.unmanaged.size,
          unmanagedKept: s.unmanaged.size - steps.filter((step) => step.kind === 'pause-unmanaged').length,
        });
        // The line every format prints is made of these numbers, and it is the same everywhere.
        const line = summaryLine(plan.summary);
        if (plan.hasChanges()) {
          expect(rendered(plan, 'text').split('\n')[0]).toBe(line);
          expect(rendered(plan, 'markdown').split('\n')).toContain(`**${line}**`);
        }
        expect(planDocument(plan).summary).toMatchObject({ patches: plan.summary.patches, moves: plan.summary.moves, positionChanges: plan.summary.positionChanges });
      }),
      { numRuns: 150 },
    );
  });

  test('a 40-rule reversal: every PATCH carrying a position is a move, and the rules it shifts are counted too', () => {
    const names = Array.from({ length: 40 }, (_, i) => `r${i}`);
    const live = names.map((name, priority) => liveRule({ name, description: '', status: 'active', actions: ['hardBlock'], conditions: { operator: '$or', children: [] }, ruleId: `id-${name}`, priority }));
    const declared = [...live].reverse().map(({ ruleId: _id, priority: _p, ...rule }, index) => declaredRule({ ...rule, source: { file: 'rules/a.yaml', line: index + 1, col: 1 } }));
    const plan = new Plan([planApp({ app: 'default', declared, live, unmanaged: 'keep' }).plan]);
    expect(summaryLine(plan.summary)).toBe('Plan: 39 PATCH requests: 0 to update, 39 to move; 40 rules change position; 0 blocked; 0 not in the files, kept');
  });
});
