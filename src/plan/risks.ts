// What a plan loosens, for the reviewer to see first (docs/behaviour.md, "Reviewing a plan"):
// a blocking rule whose actions get weaker, a blocking rule paused, a blocking rule that ends
// below an allow rule it was above (an allow-list rule decides first and lets the request
// through). Rules removed from the files but left active are the plan's unmanaged rules
// (counts.ts) and the behaviour changes are the test report; the renderers put all of them
// together. Pure: computed from the live rules and the steps as they will run.
import type { Action, LiveRule } from '../semantics/model.js';
import { simulateSteps } from '../semantics/list-move.js';
import type { PlanStep } from './types.js';
import { noun } from '../plural.js';

export interface Risk {
  app: string;
  ruleId: string;
  /** The rule's name once the plan has run. */
  name: string;
  /** What loosens, as a sentence fragment after the name. */
  what: string;
}

/** How strongly a set of actions protects: hardBlock > blockWithChallenge > neither. */
function strength(actions: readonly Action[]): number {
  if (actions.includes('hardBlock')) return 2;
  return actions.includes('blockWithChallenge') ? 1 : 0;
}

function blocking(rule: Pick<LiveRule, 'actions'>): boolean {
  return strength(rule.actions) > 0;
}

/** Named allow rules after "after allow rule …" before "and N more". */
const NAMED_ALLOW_RULES = 2;

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
    const add = (what: string): void => void risks.push({ app, ruleId: rule.ruleId, name: rule.name, what });
    if (strength(rule.actions) < strength(was.actions)) add(`actions weakened from ${was.actions.join(', ')} to ${rule.actions.join(', ')}`);
    // Only a rule that protected before, and was active, can lose protection by a pause or a move.
    if (!blocking(was) || was.status !== 'active') return;
    if (rule.status === 'paused') {
      add(`(${was.actions.join(', ')}) is paused`);
      return;
    }
    if (!blocking(rule)) return;
    const wasAt = liveOrder.get(rule.ruleId) ?? index;
    const overtaking = allowRules
      .filter((allow) => allow.index < index && (liveOrder.get(allow.rule.ruleId) ?? -1) > wasAt)
      .map((allow) => allow.rule);
    if (overtaking.length > 0) add(`(${rule.actions.join(', ')}) now comes after ${allowList(overtaking)}`);
  });
  return risks;
}

function allowList(rules: readonly LiveRule[]): string {
  const named = rules.slice(0, NAMED_ALLOW_RULES).map((rule) => `"${rule.name}"`);
  const more = rules.length - named.length;
  return `${noun(rules.length, 'allow rule')} ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}
