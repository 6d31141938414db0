// apply's text: one line per step as it completes (applied or failed), each correction pass's
// heading, then per app the steps never attempted, in plan order, the verdict, the undo plan
// and the closing line. Positions are console positions (priority + 1), as users see them in
// the console. Rule names and error messages are untrusted (docs/security.md, "Untrusted text").
import { fieldChanges, positionChange } from '../../plan/types.js';
import { noun, plural } from '../../plural.js';
import type { Colors, RenderOptions, Sink } from '../contract.js';
import { safeText } from '../sanitise.js';
import type { AppApplyView, ApplyOutput, StepOutcomeView } from './model.js';

export function outcomeLine(outcome: StepOutcomeView, c: Colors): string {
  const what = describeStep(outcome.step);
  switch (outcome.state) {
    case 'applied':
      // The ruleId the service gave a created rule: the one thing about it the plan could not say.
      if (outcome.step.kind === 'create' && outcome.result !== undefined) return `${c.green('✓')} ${what}: new ruleId ${safeText(outcome.result.ruleId)}`;
      return `${c.green('✓')} ${what}`;
    case 'failed':
      return `${c.red('✗')} failed: ${what}: ${safeText(outcome.error.message)}`;
    case 'not-attempted':
      return `${c.dim('-')} not attempted: ${what}`;
  }
}

function describeStep(step: StepOutcomeView['step']): string {
  const name = `"${safeText(step.name)}"`;
  if (step.kind === 'pause-unmanaged') return `paused unmanaged rule ${name}`;
  if (step.kind === 'create') return `created ${name} at position ${step.position + 1}`;
  if (step.kind === 'delete') return `deleted ${name} (${safeText(step.ruleId)})`;
  const fields = fieldChanges(step).map((change) => change.field);
  const position = positionChange(step);
  const moveTo = position === undefined ? undefined : `position ${position.after + 1}`;
  if (fields.length === 0) return `moved ${name} to ${moveTo ?? 'its position'}`;
  const updated = `updated ${name} (${fields.join(', ')})`;
  return moveTo === undefined ? updated : `${updated} and moved it to ${moveTo}`;
}

/** The line before a correction pass's steps. */
export function correctionPassLine(pass: number, target: string): string {
  return `Correction pass ${pass}: the live rules differed from ${target} after the previous pass.`;
}

/** The lines of one app's report once it has run: steps not attempted (plan order), then the verdict. */
function appReportLines(result: AppApplyView, target: string, c: Colors): string[] {
  const lines = result.passes.flat().filter((o) => o.state === 'not-attempted').map((o) => outcomeLine(o, c));
  if (result.verified) lines.push(`Verified: live rules of app ${safeText(result.app)} match ${target}.`);
  return lines;
}

/** stdout: what was done, after the step lines printed as they completed. */
export async function renderApplyText({ report, signal }: ApplyOutput, out: Sink, { colors }: RenderOptions): Promise<void> {
  const lines: string[] = [];
  if (report.outcome === 'cancelled') return;
  if (report.outcome === 'no-changes') {
    lines.push('No changes to apply.', ...undoLine(report));
  } else {
    lines.push('');
    for (const result of report.results) {
      if (report.results.length > 1) lines.push(`App ${safeText(result.app)}:`);
      lines.push(...appReportLines(result, report.target, colors));
    }
    lines.push(...undoLine(report));
    const sum = report.totals;
    if (report.interrupted) lines.push(`Apply interrupted (${signal ?? 'interrupt'}): ${sum.sent - sum.failed} applied, ${sum.failed} failed, ${sum.notAttempted} not attempted.`);
    else if (report.failure === undefined && report.undoError === undefined) lines.push(`Apply complete: ${plural(sum.sent, requestNoun(report))}, ${sum.failed} failed.`);
  }
  await out.write(lines.map((line) => `${line}\n`).join(''));
}

/** stderr: a cancelled apply, apps left without an undo plan, and the undo plan when stdout was lost. */
export async function renderApplyLog({ report, stdoutLost }: ApplyOutput, out: Sink): Promise<void> {
  const lines: string[] = [];
  if (report.outcome === 'cancelled') lines.push(report.interrupted ? 'Apply interrupted before any change was sent.' : 'Apply cancelled.');
  if (stdoutLost === true) lines.push(...undoLine(report));
  for (const app of report.undo?.unlisted ?? []) lines.push(`warning: no undo plan for app ${safeText(app)}: its live rules could not be listed after the apply`);
  await out.write(lines.map((line) => `${line}\n`).join(''));
}

function undoLine(report: ApplyOutput['report']): string[] {
  const saved = report.undo;
  if (saved === undefined) return [];
  const file = safeText(saved.file);
  const what = saved.chosen === 'default' ? 'Undo plan of what was applied written to' : 'Undo plan written to';
  const summary = saved.undo.summary;
  const creates = summary.creates ?? 0;
  const request = creates + (summary.deletes ?? 0) > 0 ? 'request' : 'PATCH request';
  // A rule the apply deleted comes back by a POST, under an id the service gives it then.
  const recreated = creates > 0 ? `. It creates ${plural(creates, 'deleted rule')} again: ${noun(creates, 'its ruleId', 'their ruleIds')} will differ.` : '';
  return [`${what} ${file} (${plural(summary.patches, request)}); run: botrules apply --plan ${file}${recreated}`];
}

/** "PATCH request", unless the apply also created or deleted rules. */
function requestNoun(report: ApplyOutput['report']): string {
  const lifecycle = report.results.some((result) => result.passes.flat().some((o) => o.step.kind === 'create' || o.step.kind === 'delete'));
  return lifecycle ? 'request' : 'PATCH request';
}
