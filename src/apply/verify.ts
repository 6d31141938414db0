// What the verifying LIST after an apply shows, against the state the reviewed plan set out to
// reach (docs/behaviour.md, "Verify, correct, and drift"). Apply sends only the reviewed plan:
// the one thing it may send again is the position of rules, and only when the plan itself moved
// rules, the live rules hold exactly the plan's rules with exactly the plan's fields, and every
// rule out of place lies within the positions the plan's moves covered. That is what a server
// whose move semantics differ from list-move leaves behind. Anything else (a field that is not
// what the plan set, a rule moved elsewhere, a rule gone or new) was done by someone else during
// the apply, or not stored by the server: it is reported as drift, by rule and field, and never
// overwritten.
import { planApp } from '../plan/planner.js';
import { inPriorityOrder } from '../plan/fingerprint.js';
import { fieldChanges, isMove, type PlanStep } from '../plan/types.js';
import type { LiveRule } from '../semantics/model.js';
import { pinnedDeclared } from '../semantics/pinned.js';
import { noun } from '../plural.js';

interface Verification {
  /** Priority-only PATCHes that would restore the plan's order; empty unless they may be sent. */
  corrections: PlanStep[];
  /** Rules out of place that a correction may fix: `"Name" is at position 3, expected 2`. */
  misplaced: string[];
  /** Differences never overwritten: `"Name" (ruleId): status, description differ from the plan's result`. */
  drift: string[];
}

/** The 0-based positions a plan's moves cover: from the lowest to the highest index any move left or reached. */
interface MoveWindow {
  from: number;
  to: number;
}

/** The window of positions the plan's moves touch, when run in order on a list-move server; undefined without moves. */
export function moveWindow(before: readonly LiveRule[], steps: readonly PlanStep[]): MoveWindow | undefined {
  const ids = inPriorityOrder(before).map((rule) => rule.ruleId);
  let window: MoveWindow | undefined;
  for (const step of steps) {
    // A create inserts and a delete removes: the moves after them count from the list they leave.
    if (step.kind === 'create') ids.splice(Math.min(Math.max(step.body.priority ?? ids.length, 0), ids.length), 0, step.ruleId);
    if (step.kind === 'delete' && ids.includes(step.ruleId)) ids.splice(ids.indexOf(step.ruleId), 1);
    const index = ids.indexOf(step.ruleId);
    if (index < 0 || !isMove(step) || step.body.priority === undefined) continue;
    ids.splice(index, 1);
    const target = Math.min(Math.max(step.body.priority, 0), ids.length);
    ids.splice(target, 0, step.ruleId);
    const low = Math.min(index, target);
    const high = Math.max(index, target);
    window = window === undefined ? { from: low, to: high } : { from: Math.min(window.from, low), to: Math.max(window.to, high) };
  }
  return window;
}

/**
 * Compares the live rules with `expected` (the plan's result). `window` is where the plan's
 * moves were allowed to disturb the order (undefined when the plan moved nothing: then every
 * difference of order is drift too).
 */
export function verifyApplied(expected: readonly LiveRule[], live: readonly LiveRule[], window: MoveWindow | undefined): Verification {
  const declared = pinnedDeclared(expected, 'the plan\'s result');
  const { plan, problems } = planApp({ app: 'verify', declared, live: [...live], unmanaged: 'keep' });
  const drift = [
    ...problems.map((p) => p.message),
    ...plan.blocked.map((b) => `"${b.name}" is no longer in the live rules`),
    ...plan.unmanaged.map((u) => `"${u.name}" (${u.ruleId}) appeared in the live rules`),
    ...plan.steps
      .map((step) => ({ step, fields: fieldChanges(step).map((change) => change.field) }))
      .filter(({ fields }) => fields.length > 0)
      .map(({ step, fields }) => `"${step.name}" (${step.ruleId}): ${fields.join(', ')} ${noun(fields.length, 'differs', 'differ')} from the plan's result`),
  ];
  const misplaced = misplacedRules(expected, live);
  const correctable =
    drift.length === 0 &&
    window !== undefined &&
    misplaced.every((m) => within(window, m.now) && within(window, m.wanted)) &&
    plan.steps.every((step) => step.kind === 'move');
  const lines = misplaced.map((m) => `"${m.name}" is at position ${m.now + 1}, expected ${m.wanted + 1}`);
  if (correctable) return { corrections: plan.steps, misplaced: lines, drift };
  return { corrections: [], misplaced: [], drift: [...lines, ...drift] };
}

function misplacedRules(expected: readonly LiveRule[], live: readonly LiveRule[]): { name: string; now: number; wanted: number }[] {
  const positions = new Map(inPriorityOrder(live).map((rule, index) => [rule.ruleId, index]));
  return inPriorityOrder(expected)
    .map((rule, wanted) => ({ name: rule.name, now: positions.get(rule.ruleId), wanted }))
    .filter((m): m is { name: string; now: number; wanted: number } => m.now !== undefined && m.now !== m.wanted);
}

function within(window: MoveWindow, index: number): boolean {
  return index >= window.from && index <= window.to;
}
