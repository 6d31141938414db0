// Words shared by the text and markdown renderers, all derived from a step's kind and
// changes. Positions are printed as the console shows them, 1 to the number of rules
// (docs/service-api.md: API priority = console position − 1).
import { fieldChanges, isMove, positionChange, type AppPlan, type BlockedRule, type PlanStep, type UnmanagedRule } from '../../plan/types.js';
import type { BehaviourChange, BehaviourReport, Outcome } from '../../diff/outcomes.js';
import { removedLeftActive, unmanagedFate, type Plan, type PlanSummary } from '../../plan/plan-value.js';
import { noun, plural } from '../../plural.js';

export const NO_CHANGES = 'No changes. Live rules match the rule files.';

export const POSITIONS_NOTE = 'Positions are console positions: 1 is the highest priority (API priority + 1).';

/**
 * `Plan: 3 PATCH requests: 2 to update, 1 to move (1 does both); 4 rules change position;
 * 0 blocked; 2 not in the files, kept`. Every count comes from the typed steps (counts.ts):
 * "to update" and "to move" count PATCHes (one that does both is in each, and said so);
 * "change position" counts rules that end elsewhere, those the moves shift included.
 */
export function summaryLine(summary: PlanSummary): string {
  const both = summary.updatesAndMoves > 0 ? ` (${summary.updatesAndMoves} ${noun(summary.updatesAndMoves, 'does', 'do')} both)` : '';
  const requests = [`${summary.updates} to update`, `${summary.moves} to move${both}`];
  if (summary.pauses > 0) requests.push(`${summary.pauses} unmanaged to pause`);
  // With creates or deletes the requests are not all PATCHes (docs/behaviour.md, "Creating and deleting rules").
  const creates = summary.creates ?? 0;
  const deletes = summary.deletes ?? 0;
  const lifecycle = creates + deletes > 0;
  if (creates > 0) requests.push(`${creates} to create`);
  if (deletes > 0) requests.push(`${deletes} to delete`);
  const removed = summary.removedActive > 0 ? ` (${summary.removedActive} removed from the files, left ACTIVE)` : '';
  const parts = [
    `${lifecycle ? plural(summary.patches, 'request') : plural(summary.patches, 'PATCH request')}: ${requests.join(', ')}`,
    `${plural(summary.positionChanges, 'rule changes', 'rules change')} position`,
    `${summary.blocked} blocked`,
    `${summary.unmanagedKept} not in the files, kept${removed}`,
  ];
  return `Plan: ${parts.join('; ')}`;
}

/**
 * What happens to a live rule no file declares, under the app's policy: the sentence after
 * its name in every format.
 */
export function unmanagedText(app: AppPlan, rule: UnmanagedRule): string {
  const fate = unmanagedFate(app, rule);
  if (fate === 'deleted by this plan') {
    return `${rule.removedFromFiles === true ? 'removed from the files' : 'declared in no rule file'}: deleted by this plan (unmanaged: delete)`;
  }
  if (rule.removedFromFiles !== true) {
    const declared = 'declared in no rule file';
    return fate === 'paused by this plan' ? `${declared}: paused by this plan (unmanaged: pause)` : `${declared}: ${fate}`;
  }
  if (fate === 'paused by this plan') return `removed from the files: paused by this plan (unmanaged: pause) — the service cannot delete rules`;
  if (fate === 'stays live, paused') return 'removed from the files: stays live, paused — the service cannot delete rules';
  return `${REMOVED_ACTIVE}; to stop it, keep its file with status: paused, or set unmanaged: pause`;
}

export const REMOVED_ACTIVE = 'removed from the files: stays live and ACTIVE — the service cannot delete rules';

/** `updates description, conditions; moves from position 8 to 3`, or `pauses it (…)`. */
export function whatChanges(step: PlanStep): string {
  if (step.kind === 'pause-unmanaged') return 'pauses it (no rule file declares it)';
  if (step.kind === 'create') return `creates it at position ${step.position + 1} (POST; the service gives it its ruleId)`;
  if (step.kind === 'delete') return `deletes it from position ${step.position + 1} (DELETE; no rule file declares it)`;
  const fields = fieldChanges(step).map((change) => change.field);
  const parts = fields.length > 0 ? [`updates ${fields.join(', ')}`] : [];
  const position = positionChange(step);
  if (position !== undefined) parts.push(moveText(position.before + 1, position.after + 1));
  const drops = step.dropsUnknown?.length ?? 0;
  if (drops > 0) parts.push(`removes ${plural(drops, 'field')} botrules does not know`);
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
  const tests = plural(report.tests, 'test request');
  if (report.changes.length === 0) return `Behaviour: the plan changes the outcome of none of the ${tests}.`;
  return `Behaviour changes: the plan changes the outcome of ${report.changes.length} of the ${tests}:`;
}

/** The Markdown alert's heading: loosened protection, removed rules left active, changed outcomes. */
export const ATTENTION_HEADING = 'Needs a reviewer\'s attention: what this plan loosens or leaves active, and what it changes';

/** The unmanaged rules removed from the files and left active first, then the others, each group in live order. */
export function unmanagedInOrder(app: AppPlan): UnmanagedRule[] {
  const first = removedLeftActive(app);
  const rest = app.unmanaged.filter((rule) => !first.includes(rule));
  return [...first, ...rest];
}

/**
 * The console steps that turn a blocked rule into a managed one: create a paused
 * placeholder under its name at its position (a console rule is live as soon as it is
 * saved, so paused until the plan gives it its fields), pin its id, plan again.
 */
export function consoleSteps(rule: BlockedRule, quote: Quoting = PLAIN): string[] {
  const below = rule.below === undefined ? '' : ` (directly below ${quote.name(rule.below)})`;
  const position = rule.position === undefined ? '' : `, at position ${rule.position}${below}`;
  return [
    `1. In the console, create a rule named ${quote.name(rule.name)} with status paused${position}.`,
    `2. Run ${quote.code('botrules import --update --pin')} to write its ruleId into the file (nothing else in the files changes).`,
    `3. Run ${quote.code('botrules plan')}: it shows only the remaining field changes, and apply sets them (its status too).`,
  ];
}

/** How a format writes a rule's name and a command in a sentence. */
export interface Quoting {
  name: (name: string) => string;
  code: (command: string) => string;
}

const PLAIN: Quoting = { name: (name) => `"${name}"`, code: (command) => `\`${command}\`` };

/**
 * What a reviewer must see on the first screen about creates and deletes (as cautions): every
 * rule the plan deletes, and every new rule that blocks or challenges requests once active.
 */
export function lifecycleCautions(app: AppPlan): { name: string; ruleId?: string; what: string }[] {
  return app.steps.flatMap((step) => {
    if (step.kind === 'delete') return [{ name: step.name, ruleId: step.ruleId, what: 'is deleted by this plan; its undo creates it again under a new ruleId' }];
    if (step.kind !== 'create' || step.body.status !== 'active' || step.body.actions === undefined) return [];
    const blocking = step.body.actions.filter((action) => action !== 'allow');
    if (blocking.length === 0) return [];
    return [{ name: step.name, what: `is a new active rule that ${blocking.includes('hardBlock') ? 'blocks' : 'challenges'} requests (${blocking.join(', ')}) from position ${step.position + 1}` }];
  });
}
