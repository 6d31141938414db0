// The verdict of an apply that ran: nothing (it fully succeeded), or the error that says why
// not, in this order: a PATCH failed; the verifying LIST failed; the live rules differ from the
// plan's result in ways apply did not overwrite (drift); the order is still wrong after the
// corrections allowed (docs/behaviour.md, "Verify, correct, and drift"). Every case exits 1.
import type { AppApplyResult } from '../apply/apply-app.js';
import { totals } from '../apply/report.js';
import { RemoteError, UserError } from '../errors.js';
import { noun, plural } from '../plural.js';

/** Correction passes after the first (docs/behaviour.md, "Verify, correct, and drift"). */
export const MAX_CORRECTIONS = 2;

export function applyVerdict(results: readonly AppApplyResult[], target: string): Error | undefined {
  const sum = totals(results);
  const failedApps = results.filter((r) => r.passes.some((p) => p.some((o) => o.state === 'failed')));
  const lifecycle = results.some((r) => r.passes.flat().some((o) => o.step.kind === 'create' || o.step.kind === 'delete'));
  const unsupported = unsupportedRequest(results);
  if (unsupported !== undefined) {
    // A POST or DELETE the service does not offer: said first, with the setting to turn off.
    return new RemoteError(
      `apply stopped: ${unsupported}; ${sum.sent - sum.failed} applied, ${sum.notAttempted} not attempted; ` +
        'run botrules plan once the setting is changed: it plans for the service as it is',
      { operation: 'applying the plan' },
    );
  }
  if (failedApps.length > 0) {
    return new RemoteError(
      `apply failed: ${plural(sum.failed, lifecycle ? 'request' : 'PATCH request')} failed, ${sum.sent - sum.failed} applied, ${sum.notAttempted} not attempted ` +
        `(${noun(failedApps.length, 'app')} ${failedApps.map((r) => r.app).join(', ')}); ` +
        'once the cause is fixed, run botrules apply again: it plans from the live rules and sends only what remains',
      { operation: 'applying the plan' },
    );
  }
  const unlisted = results.filter((r) => r.listError !== undefined);
  if (unlisted.length > 0) {
    const reasons = unlisted.map((r) => `app ${r.app}: ${r.listError?.message ?? ''}`).join('; ');
    return new RemoteError(`applied ${plural(sum.sent, 'PATCH request')} but could not list the rules again to verify them: ${reasons}`, {
      operation: 'verifying the apply',
    });
  }
  const drifted = results.filter((r) => r.drift.length > 0);
  if (drifted.length > 0) {
    const count = drifted.reduce((n, r) => n + r.drift.length, 0);
    return new UserError(
      `the live rules differ from ${target} after the apply: ${plural(count, 'difference')} that the plan did not make ` +
        '(changed by someone else during the apply, or not stored by the service); botrules did not overwrite them:',
      [
        ...drifted.flatMap((r) => r.drift.map((d) => `app ${r.app}: ${d}`)),
        'Nothing more was sent. Check these rules in the console, then run botrules plan to see what the next apply would do.',
      ],
    );
  }
  const differing = results.filter((r) => !r.verified);
  if (differing.length > 0) {
    const reasons = [...new Set(differing.map((r) => r.gaveUp ?? `after ${MAX_CORRECTIONS} correction passes`))];
    const why = reasons.length === 1 && reasons[0]?.startsWith('after ') ? ` ${reasons[0]}` : `: ${reasons.join('; ')}`;
    return new UserError(
      `the live rules still differ from ${target}${why} (the service's priority semantics may not be list-move):`,
      [...differing.flatMap((r) => r.differences.map((d) => `app ${r.app}: ${d}`)), 'Nothing more was sent. Check the rules in the console, then run botrules plan.'],
    );
  }
  return undefined;
}

/**
 * The message of a create or delete step that failed because the service does not offer POST or
 * DELETE (the client's message names `service.create: false` or `service.delete: false`).
 */
export function unsupportedRequest(results: readonly AppApplyResult[]): string | undefined {
  for (const outcome of results.flatMap((r) => r.passes.flat())) {
    if (outcome.state !== 'failed' || (outcome.step.kind !== 'create' && outcome.step.kind !== 'delete')) continue;
    if (/service\.(create|delete): false/.test(outcome.error.message)) return outcome.error.message;
  }
  return undefined;
}
