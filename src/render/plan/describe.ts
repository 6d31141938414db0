// Words shared by the text and markdown renderers, all derived from a step's kind and
// changes. Positions are printed as the console shows them, 1 to the number of rules
// (docs/service-api.md: API priority = console position − 1).
import { fieldChanges, isMove, positionChange, type BehaviourChange, type BehaviourReport, type Outcome, type PlanStep } from '../../plan/types.js';
import type { Plan, PlanSummary } from '../../plan/plan.js';

export const NO_CHANGES = 'No changes. Live rules match the rule files.';

export const POSITIONS_NOTE = 'Positions are console positions: 1 is the highest priority (API priority + 1).';

export { BLOCKED_ADVICE } from '../../plan/plan.js';

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

/** `updates description, conditions; moves from position 8 to 3`, or `pauses it (…)`. */
export function whatChanges(step: PlanStep): string {
  if (step.kind === 'pause-unmanaged') return 'pauses it (no rule file declares it)';
  const fields = fieldChanges(step).map((change) => change.field);
  const parts = fields.length > 0 ? [`updates ${fields.join(', ')}`] : [];
  const position = positionChange(step);
  if (position !== undefined) parts.push(moveText(position.before + 1, position.after + 1));
  const drops = step.dropsUnknown?.length ?? 0;
  if (drops > 0) parts.push(`removes ${drops === 1 ? '1 field' : `${drops} fields`} botrules does not know`);
  return parts.join('; ');
}

/**
 * One line per field botrules does not know that the step removes from the live rule
 * (docs/behaviour.md, "Unknown fields"): `! removes "caseSensitive" of conditions.children[0].children[1] …`.
 */
export function unknownDropLines(step: PlanStep): string[] {
  return (step.dropsUnknown ?? []).map(
    (drop) => `! removes "${drop.field}" of ${drop.path}, a field botrules does not know (its leaf or group is replaced; apply needs --force)`,
  );
}

function moveText(from: number, to: number): string {
  // It must still move: the rules it has to end up between change places around it.
  if (from === to) return `moves, to end at position ${to} again (the rules around it move)`;
  return `moves from position ${from} to ${to}`;
}

export function hasMoves(steps: readonly PlanStep[]): boolean {
  return steps.some(isMove);
}

/** `1 unmanaged live rule` / `3 unmanaged live rules`. */
export function counted(count: number, singular: string, plural: string): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/**
 * Said first when the plan was made from a live snapshot (`plan --live`). `takenAt` passed
 * the snapshot schema's date-time pattern, so it is safe to print as it is.
 */
export function snapshotNote(plan: Plan): string | undefined {
  if (plan.snapshot === undefined) return undefined;
  return `Planned against the live rules as they were at ${plan.snapshot.takenAt} (live snapshot), not as they are now.`;
}

/** `no rule` or `"Challenge scrapers" (blockWithChallenge)`; the caller makes it safe for its format. */
export function outcomeText(outcome: Outcome): string {
  if (outcome.rule === undefined) return 'no rule';
  return `"${outcome.rule}" (${outcome.actions.join(', ')})`;
}

/** One behaviour change as a sentence: `"login": live → no rule; declared → "Challenge" (…)`. */
export function behaviourLine(change: BehaviourChange, showApp: boolean): string {
  const where = `${change.source.file}:${change.source.line}:${change.source.col}`;
  const app = showApp ? `${change.app}: ` : '';
  return `${app}"${change.test}" (${where}): live → ${outcomeText(change.before)}; declared → ${outcomeText(change.after)}`;
}

/** The heading of the behaviour section, or the one line that says nothing changes. */
export function behaviourHeading(report: BehaviourReport): string {
  const tests = counted(report.tests, 'test request', 'test requests');
  if (report.changes.length === 0) return `Behaviour: the plan changes the outcome of none of the ${tests}.`;
  return `Behaviour changes: the plan changes the outcome of ${report.changes.length} of the ${tests}:`;
}
