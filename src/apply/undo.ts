// The undo plan an apply writes with --undo-out: a plan in the usual JSON format, runnable
// with `apply --plan`, that puts back every field and position the apply changed. Its
// fingerprint is that of the live rules after the apply, so it refuses to run once anything
// else has changed them.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { writeFileAtomic } from '../io/atomic-write.js';
import { fingerprintRules } from '../plan/fingerprint.js';
import { Plan } from '../plan/plan-value.js';
import { planDocument } from '../render/plan/plan-file.js';
import { restoringPlan, undoAppPlan } from '../plan/undo.js';
import type { AppPlan } from '../plan/types.js';
import { NO_CAPABILITIES, type LiveRule, type ServiceCapabilities } from '../semantics/model.js';
import type { AppApplyResult } from './apply-app.js';

interface UndoInput {
  plan: AppPlan;
  /** The live rules the plan started from. */
  before: readonly LiveRule[];
  result: AppApplyResult;
  /** What the service accepts: a created rule is undone by a DELETE (a pause without it), a deleted one by a POST. */
  service?: ServiceCapabilities;
}

/**
 * The undo plan of one app, or undefined when the live rules after the apply are unknown
 * (the last LIST failed). A verified apply reached exactly the plan's simulated result, so
 * the planner's undo of the plan applies. Otherwise (a step failed, or the server left
 * something else) the undo is planned from the live rules as listed after the apply.
 */
export function undoForApp({ plan, before, result, service = NO_CAPABILITIES }: UndoInput): AppPlan | undefined {
  const after = result.after;
  if (after === undefined) return undefined;
  const afterFingerprint = fingerprintRules(after);
  // A plan that created rules reaches its result under ids the service chose, not its placeholders.
  if (result.verified && !plan.steps.some((step) => step.kind === 'create')) {
    const undo = undoAppPlan(plan, before, service);
    if (undo.fingerprint === afterFingerprint) return undo;
  }
  return restoringPlan(plan.app, before, after, service);
}

/** The undo plan of an apply that changes nothing: no steps, the live rules recorded as they are. */
export function unchangedUndo(app: string, live: readonly LiveRule[]): AppPlan {
  return restoringPlan(app, live, live);
}

/**
 * Writes the undo plan of an apply that has sent its changes. The path was checked before the
 * first request; if writing still fails (a full disk), the plan goes to a file in the system's
 * temporary directory instead, and the error says where: an apply never loses its undo plan.
 */
export async function writeUndoPlan(file: string, apps: readonly AppPlan[], shown: string = file): Promise<Plan> {
  const undo = new Plan(apps);
  const text = `${JSON.stringify(planDocument(undo), null, 2)}\n`;
  try {
    await writeFileAtomic(file, text, '--undo-out', shown);
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    const fallback = join(tmpdir(), `botrules-undo-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}.json`);
    try {
      await writeFileAtomic(fallback, text, 'the undo plan', fallback);
    } catch {
      throw new UserError(`${err.message}; the undo plan follows, save it to roll back with botrules apply --plan FILE`, [text]);
    }
    throw new UserError(`${err.message}; the undo plan was saved to ${fallback} instead`, [`Roll back with: botrules apply --plan ${fallback}`]);
  }
  return undo;
}
