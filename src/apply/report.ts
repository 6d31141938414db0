// The lines apply prints for what it did: one per step as it completes (applied or failed),
// then per app the steps never attempted, in plan order, and the verdict. Positions are
// console positions (priority + 1), as users see them in the console.
import type { Colors } from '../render/contract.js';
import { safeText } from '../render/sanitise.js';
import { fieldChanges, positionChange } from '../plan/types.js';
import type { AppApplyResult } from './apply-app.js';
import type { StepOutcome } from './execute.js';

export function outcomeLine(outcome: StepOutcome, c: Colors): string {
  const what = describeStep(outcome.step);
  switch (outcome.state) {
    case 'applied':
      return `${c.green('✓')} ${what}`;
    case 'failed':
      return `${c.red('✗')} failed: ${what}: ${safeText(outcome.error.message)}`;
    case 'not-attempted':
      return `${c.dim('-')} not attempted: ${what}`;
  }
}

function describeStep(step: StepOutcome['step']): string {
  // Rule names are untrusted (docs/security.md, "Untrusted text").
  const name = `"${safeText(step.name)}"`;
  if (step.kind === 'pause-unmanaged') return `paused unmanaged rule ${name}`;
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
export function appReportLines(result: AppApplyResult, target: string, c: Colors): string[] {
  const lines = result.passes.flat().filter((o) => o.state === 'not-attempted').map((o) => outcomeLine(o, c));
  if (result.verified) lines.push(`Verified: live rules of app ${result.app} match ${target}.`);
  return lines;
}

export interface ApplyTotals {
  sent: number;
  failed: number;
  notAttempted: number;
}

export function totals(results: readonly AppApplyResult[]): ApplyTotals {
  const all = results.flatMap((r) => r.passes.flat());
  return {
    sent: all.filter((o) => o.state !== 'not-attempted').length,
    failed: all.filter((o) => o.state === 'failed').length,
    notAttempted: all.filter((o) => o.state === 'not-attempted').length,
  };
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
