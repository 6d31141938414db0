// Plans to render: computed by the planner from small rule sets.
import pc from 'picocolors';
import { Plan } from '../../src/plan/plan-value.js';
import { planApp } from '../../src/plan/planner.js';
import { planRisks } from '../../src/plan/risks.js';
import { markRemoved } from '../../src/engine/removed-rules.js';
import type { Renderer } from '../../src/render/contract.js';
import { reviewOf, type ReviewedPlan } from '../../src/render/plan/review.js';
import { reviewed } from '../plan/rendered.js';

export { savedAgain } from '../plan/rendered.js';
import { declaredRules, liveRules, rule } from '../plan/fixtures.js';

/** a,b,c,u,p live; b moves first and changes, c changes, "missing" is blocked, u and p unmanaged. */
export function samplePlan(unmanaged: 'keep' | 'pause' = 'keep'): Plan {
  const live = liveRules([rule('a'), rule('b'), rule('c'), rule('u'), rule('p', { status: 'paused' })]);
  const declared = declaredRules([rule('b', { description: 'new' }), rule('a'), rule('c', { status: 'paused' }), rule('missing')]);
  return new Plan([planApp({ app: 'default', declared, live, unmanaged }).plan]);
}

/** Only pure moves: live a..e, declared e,a,b,c,d (e moves from position 5 to 1). */
export function movePlan(): Plan {
  const live = liveRules(['a', 'b', 'c', 'd', 'e'].map((n) => rule(n)));
  const declared = declaredRules(['e', 'a', 'b', 'c', 'd'].map((n) => rule(n)));
  return new Plan([planApp({ app: 'default', declared, live, unmanaged: 'keep' }).plan]);
}

export const SHALLOW_NOTE = 'The git history is shallow: rules removed before its first commit are not recognised as removed (check out with fetch-depth: 0).';

/**
 * Everything a reviewer must see first: "b" (hardBlock) is weakened and moves below the allow
 * rule "ok", "c" (hardBlock) is paused, "u" was removed from the files and stays active; with
 * the note a shallow clone gives. As plan (src/engine/plan.ts) builds it.
 */
export function riskyPlan(): ReviewedPlan {
  const live = liveRules([rule('b'), rule('ok', { actions: ['allow'] }), rule('c'), rule('u')]);
  const declared = declaredRules([rule('ok', { actions: ['allow'] }), rule('b', { actions: ['blockWithChallenge'] }), rule('c', { status: 'paused' })]);
  const planned = planApp({ app: 'default', declared, live, unmanaged: 'keep' }).plan;
  const app = markRemoved(planned, { known: true, declared: { ruleIds: new Set(), names: new Set(['u']) }, shallow: true });
  return { plan: new Plan([app]), review: reviewOf({ risks: planRisks('default', live, app.steps), notes: [{ kind: 'shallow-history' }] }) };
}

export function emptyPlan(): Plan {
  const live = liveRules([rule('a'), rule('u')]);
  return new Plan([planApp({ app: 'default', declared: declaredRules([rule('a')]), live, unmanaged: 'keep' }).plan]);
}

export function render(renderer: Renderer<ReviewedPlan>, plan: Plan | ReviewedPlan, color = false): string {
  let text = '';
  renderer(reviewed(plan), { write: (chunk: string) => (text += chunk) }, { colors: pc.createColors(color) });
  return text;
}
