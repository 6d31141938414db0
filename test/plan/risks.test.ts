// What a plan loosens, named for the reviewer: weaker actions, a blocking rule paused, a
// blocking rule that ends below an allow rule it was above. Tightening is not a risk.
import { describe, expect, test } from '@jest/globals';
import { planApp } from '../../src/plan/planner.js';
import { planRisks } from '../../src/plan/risks.js';
import { looseningWords } from '../../src/render/plan/reasons.js';
import type { Rule } from '../../src/semantics/model.js';
import { declaredRules, liveRules, rule } from './fixtures.js';

function risksOf(live: Rule[], declared: Rule[]): string[] {
  const liveList = liveRules(live);
  const { plan } = planApp({ app: 'default', declared: declaredRules(declared), live: liveList, unmanaged: 'keep' });
  return planRisks('default', liveList, plan.steps).map((risk) => `"${risk.name}" ${looseningWords(risk.loosens)}`);
}

describe('plan risks', () => {
  test('weaker actions, a paused blocking rule, a blocking rule below an allow rule', () => {
    const live = [rule('Block'), rule('Challenge', { actions: ['blockWithChallenge'] }), rule('Allow', { actions: ['allow'] }), rule('Login')];
    const declared = [
      rule('Block', { actions: ['blockWithChallenge'] }),
      rule('Allow', { actions: ['allow'] }),
      rule('Challenge', { actions: ['blockWithChallenge'] }),
      rule('Login', { status: 'paused' }),
    ];
    expect(risksOf(live, declared)).toEqual([
      '"Block" actions weakened from hardBlock to blockWithChallenge',
      '"Challenge" (blockWithChallenge) now comes after allow rule "Allow"',
      '"Login" (hardBlock) is paused',
    ]);
  });

  test('tightening, moving allow rules down and unpausing are not risks', () => {
    const live = [rule('Allow', { actions: ['allow'] }), rule('Block', { actions: ['blockWithChallenge'] }), rule('Paused', { status: 'paused' })];
    const declared = [rule('Block', { actions: ['hardBlock'] }), rule('Allow', { actions: ['allow'] }), rule('Paused')];
    expect(risksOf(live, declared)).toEqual([]);
  });
});
