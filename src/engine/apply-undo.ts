// The undo plan of an apply: written where --undo-out says, or, after an interrupt without
// --undo-out, to a file named by the time in the working directory (as Terraform leaves
// errored.tfstate beside the configuration): an interrupted apply always leaves its undo plan
// (docs/behaviour.md, "Interrupted applies").
import { resolve } from 'node:path';
import type { AppApplyResult } from '../apply/apply-app.js';
import { unchangedUndo, undoForApp, writeUndoPlan } from '../apply/undo.js';
import type { ApplyWork } from '../apply/work.js';
import type { Plan } from '../plan/plan-value.js';
import type { AppPlan } from '../plan/types.js';
import { orderSteps, type TransitionRun } from '../diff/order/stage.js';
import { definedFields } from '../defined.js';

export interface SavedUndo {
  /** The path as the user named it, or the default file's name. */
  file: string;
  /** 'asked': --undo-out; 'default': chosen by botrules after an interrupt. */
  chosen: 'asked' | 'default';
  undo: Plan;
  /** Apps with no undo plan: their live rules could not be listed after the apply. */
  unlisted: string[];
}

/** Where the undo plan goes: --undo-out, else a default file after an interrupt, else nowhere. */
export function undoFileFor(undoOut: string | undefined, interrupted: boolean, now: Date = new Date()): { file: string; chosen: SavedUndo['chosen'] } | undefined {
  if (undoOut !== undefined) return { file: undoOut, chosen: 'asked' };
  if (!interrupted) return undefined;
  const stamp = now.toISOString().replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '');
  return { file: `botrules-undo-${stamp}.json`, chosen: 'default' };
}

/**
 * Writes the undo plan of an apply; `results` absent when nothing was sent. With `transitions`
 * (the check was on), each app's undo is put in the order the transition check chooses, as a
 * forward plan is: `apply --plan` checks the undo's order again and refuses one with a window.
 */
export async function saveUndo(
  file: string,
  cwd: string,
  work: readonly ApplyWork[],
  { results, chosen = 'asked', transitions }: { results?: readonly AppApplyResult[]; chosen?: SavedUndo['chosen']; transitions?: TransitionRun } = {},
): Promise<SavedUndo> {
  const apps: AppPlan[] = [];
  const unlisted: string[] = [];
  work.forEach((w, index) => {
    const result = results?.[index];
    const undo = result === undefined ? unchangedUndo(w.plan.app, w.live) : undoForApp({ plan: w.plan, before: w.live, result, ...definedFields({ service: w.app.service }) });
    if (undo === undefined) unlisted.push(w.plan.app);
    // The undo runs on the rules as the apply left them (its restore field rides along).
    else apps.push(orderSteps(undo, result?.after ?? w.live, transitions));
  });
  return { file, chosen, undo: await writeUndoPlan(resolve(cwd, file), apps, file), unlisted };
}
