// Words shared by the text and markdown renderers. Positions are printed as the console
// shows them, 1 to the number of rules (api.md §2.2: API priority = console position − 1).
import { isMove, isUnmanagedPause, type PlanStep } from '../../plan/types.js';
import type { PlanSummary } from '../../plan/plan.js';

export const NO_CHANGES = 'No changes. Live rules match the rule files.';

export const POSITIONS_NOTE = 'Positions are console positions: 1 is the highest priority (API priority + 1).';

/**
 * `Plan: 3 to update, 2 to move, 1 blocked, 4 unmanaged kept`. Each PATCH counts once:
 * a rule that moves and changes is "to update"; "to move" counts rules that only move.
 * "N unmanaged to pause" appears only when policy pause has something to pause.
 */
export function summaryLine(summary: PlanSummary): string {
  const parts = [`${summary.updates} to update`, `${summary.moves} to move`];
  if (summary.pauses > 0) parts.push(`${summary.pauses} unmanaged to pause`);
  parts.push(`${summary.blocked} blocked`, `${summary.unmanagedKept} unmanaged kept`);
  return `Plan: ${parts.join(', ')}`;
}

/** `description, conditions; moves from position 8 to 3`, or `pauses it (unmanaged)`. */
export function whatChanges(step: PlanStep): string {
  if (isUnmanagedPause(step)) return 'pauses it (no rule file declares it)';
  const fields = step.reasons.filter((reason) => reason !== 'priority');
  const parts = fields.length > 0 ? [`updates ${fields.join(', ')}`] : [];
  if (isMove(step)) parts.push(moveText(step));
  return parts.join('; ');
}

function moveText(step: PlanStep): string {
  const { from, to } = step.display ?? {};
  if (from !== undefined && to !== undefined) return `moves from position ${from + 1} to ${to + 1}`;
  const priority = step.body.priority ?? 0;
  return `moves to position ${priority + 1} at its turn (API priority ${priority})`;
}

export function hasMoves(steps: readonly PlanStep[]): boolean {
  return steps.some(isMove);
}
