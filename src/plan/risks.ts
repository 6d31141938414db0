// What a plan loosens, for the reviewer to see first (docs/behaviour.md, "Reviewing a plan"):
// a blocking rule whose actions get weaker, a blocking rule paused, a blocking rule that ends
// below an allow rule it was above (an allow-list rule decides first and lets the request
// through). Rules removed from the files but left active are the plan's unmanaged rules
// (counts.ts) and the behaviour changes are the test report; the renderers put all of them
// together. Pure: computed from the live rules and the steps as they will run.
import type { Action, LiveRule } from '../semantics/model.js';
import { simulateSteps } from '../semantics/list-move.js';
import type { PlanStep, SavedWords } from './types.js';

/**
 * What loosens, as data (src/render/plan/reasons.ts words it): the actions weakened, a blocking
 * rule paused, a blocking rule now after allow rules (their names, in the order after the plan);
 * or the words a saved plan file carries.
 */
export type Loosening =
  | { kind: 'weakened'; from: readonly Action[]; to: readonly Action[] }
  | { kind: 'paused'; actions: readonly Action[] }
  | { kind: 'after-allow'; actions: readonly Action[]; allowRules: readonly string[] }
  | SavedWords;

export interface Risk {
  app: string;
  ruleId: string;
  /** The rule's name once the plan has run. */
  name: string;
  loosens: Loosening;
}

/** How strongly a set of actions protects: hardBlock > blockWithChallenge > neither. */
function strength(actions: readonly Action[]): number {
  if (actions.includes('hardBlock')) return 2;
  return actions.includes('blockWithChallenge') ? 1 : 0;
}

function blocking(rule: Pick<LiveRule, 'actions'>): boolean {
  return strength(rule.actions) > 0;
}

/** Every loosening the steps make to one app's live rules, in the order of the rules after the plan. */
export function planRisks(app: string, live: readonly LiveRule[], steps: readonly PlanStep[]): Risk[] {
  if (steps.length === 0) return [];
  const after = simulateSteps(live, steps);
  const before = new Map(live.map((rule) => [rule.ruleId, rule]));
  const liveOrder = new Map(simulateSteps(live, []).map((rule, index) => [rule.ruleId, index]));
  const allowRules = after
    .map((rule, index) => ({ rule, index }))
    .filter(({ rule }) => rule.status === 'active' && rule.actions.includes('allow') && !blocking(rule));
  const risks: Risk[] = [];
  after.forEach((rule, index) => {
    const was = before.get(rule.ruleId);
    if (was === undefined) return;
    const add = (loosens: Loosening): void => void risks.push({ app, ruleId: rule.ruleId, name: rule.name, loosens });
    if (strength(rule.actions) < strength(was.actions)) add({ kind: 'weakened', from: was.actions, to: rule.actions });
    // Only a rule that protected before, and was active, can lose protection by a pause or a move.
    if (!blocking(was) || was.status !== 'active') return;
    if (rule.status === 'paused') {
      add({ kind: 'paused', actions: was.actions });
      return;
    }
    if (!blocking(rule)) return;
    const wasAt = liveOrder.get(rule.ruleId) ?? index;
    const overtaking = allowRules
      .filter((allow) => allow.index < index && (liveOrder.get(allow.rule.ruleId) ?? -1) > wasAt)
      .map((allow) => allow.rule.name);
    if (overtaking.length > 0) add({ kind: 'after-allow', actions: rule.actions, allowRules: overtaking });
  });
  return risks;
}
