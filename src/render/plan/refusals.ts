// What apply refuses without --force, in words (docs/design.md, "The Plan and its Review"): the
// Plan says which limits a plan exceeds as data (`Plan.refusals`, the excesses of
// src/plan/safety.ts and src/plan/traffic-limit.ts); the plan's warnings, the Markdown comment and
// apply's refusal say them in the same sentences. Names come from rule files and the service:
// callers sanitise the words they print.
import { UserError } from '../../errors.js';
import type { Plan, Refusal, SafetyLimits } from '../../plan/plan-value.js';
import { DEFAULT_DELETE_MIN_RULES, DEFAULT_MAX_DELETE_SHARE, DEFAULT_MAX_SHARE, DEFAULT_MIN_CHANGES, type LimitExcess } from '../../plan/safety.js';
import type { TrafficExcess } from '../../plan/traffic-limit.js';
import { noun, plural } from '../../plural.js';

/** The other way out of a blocked rule, when the service accepts POST (it is off by default: api.md shows list and PATCH only). */
export const CREATE_INSTEAD_ADVICE =
  'If your service accepts POST ("Create custom rule" in its API reference), `service.create: true` in botrules.yaml ' +
  'makes each a create step instead (docs/behaviour.md, "Creating and deleting rules").';

/** What to do about blocked rules, said once under their list. */
export const BLOCKED_ADVICE =
  'Create each in the console under the name shown, paused, at the position shown; then run `botrules import --update --pin` ' +
  `to pin its ruleId, and \`botrules plan\` shows only the remaining field changes (docs/behaviour.md, "Adding a rule"). ${CREATE_INSTEAD_ADVICE}`;

/** The one sentence about a plan's blocked rules, or undefined when there are none. */
export function blockedSentence(plan: Plan): string | undefined {
  const count = plan.summary.blocked;
  if (count === 0) return undefined;
  return `${plural(count, 'declared rule')} ${noun(count, 'does', 'do')} not exist live, and the API cannot create rules: the plan cannot be applied`;
}

/** The sentence a reviewer and apply's refusal read for an excess. */
export function excessSentence(excess: LimitExcess): string {
  const share = (count: number) => Math.round((100 * count) / Math.max(1, excess.liveRules));
  if (excess.kind === 'deletes') {
    const said = `plan for app ${excess.app} deletes ${excess.deletes} of its ${excess.liveRules} live rules (${share(excess.deletes)} %)`;
    if (excess.limit.from === 'config') return `${said}, more than maxDeletes ${excess.limit.written} allows`;
    return (
      `${said}, more than the default limit of ${DEFAULT_MAX_DELETE_SHARE * 100} % (for apps with at least ${DEFAULT_DELETE_MIN_RULES}); ` +
      'declare the rules to keep (botrules import writes them as files), or set maxDeletes in botrules.yaml'
    );
  }
  const { limit } = excess;
  if (limit.from !== 'default') {
    const source = limit.from === 'flag' ? `--max-changes ${limit.limit}` : `maxChanges ${limit.limit} (set for this app)`;
    return `plan for app ${excess.app} has ${excess.requests} ${excess.lifecycle ? 'requests' : 'PATCH requests'}, more than ${source} allows`;
  }
  return (
    `plan for app ${excess.app} changes ${excess.requests} of its ${excess.liveRules} live rules (${share(excess.requests)} %), more than the default ` +
    `limit of ${DEFAULT_MAX_SHARE * 100} % (when more than ${DEFAULT_MIN_CHANGES} rules change); ` +
    'set maxChanges for the app in botrules.yaml, or --max-changes, to choose a limit'
  );
}

/** The share as a reader compares it: `0.5%`, `12%`, never `0%` for a real share. */
export function sharePercent(share: number): string {
  if (share > 0 && share < 0.001) return '<0.1%';
  const percent = share * 100;
  return `${Number.isInteger(percent) ? percent : Number(percent.toFixed(1))}%`;
}

/** The sentence a reviewer and apply's refusal read for a traffic excess. */
export function trafficExcessSentence({ app, verdict, limit, configured }: TrafficExcess): string {
  const source = configured ? `maxNewlyBlocked ${sharePercent(limit)}` : `the default maxNewlyBlocked of ${sharePercent(limit)}`;
  return `plan for app ${app} would newly block or challenge ${verdict.newlyBlocked} of the ${verdict.evaluated} replayed requests ` +
    `(${sharePercent(verdict.newlyBlocked / verdict.evaluated)}) that had no blocking outcome, more than ${source} allows`;
}

/** The rules that would block the requests and a few of them, one line each. */
export function trafficExcessDetails({ app, verdict }: TrafficExcess): string[] {
  return [
    ...verdict.rules.map((rule) => `app ${app}: ${rule.count} by ${JSON.stringify(rule.name)}`),
    ...verdict.examples.map((example) => `app ${app}: e.g. ${example}`),
  ];
}

/** One refusal as a sentence. */
function refusalSentence(refusal: Refusal): string {
  switch (refusal.kind) {
    case 'limit': return excessSentence(refusal.excess);
    case 'traffic': return trafficExcessSentence(refusal.excess);
    case 'drops-unknown': {
      const fields = refusal.drops.map((drop) => `"${drop.field}" (${drop.path})`).join(', ');
      return `plan for app ${refusal.app} would remove ${noun(refusal.drops.length, 'field')} ${fields} of rule "${refusal.rule}" (${refusal.ruleId}), which botrules does not know`;
    }
    case 'windows': {
      const windows = refusal.windows === 1 ? 'a window' : plural(refusal.windows, 'window');
      return `plan for app ${refusal.app} opens ${windows} in which requests that the live rules and the rule files both block or challenge get through between its PATCH requests`;
    }
  }
}

/** Throws a UserError listing every blocked rule (`app A: "Name" (file:line:col)`) and what to do, before anything is sent. */
export function raiseIfBlocked(plan: Plan): void {
  const sentence = blockedSentence(plan);
  if (sentence === undefined) return;
  const blocked = plan.apps.flatMap((app) => app.blocked.map((rule) =>
    `app ${app.app}: "${rule.name}"${rule.source ? ` (${rule.source.file}:${rule.source.line}:${rule.source.col})` : ''}`));
  throw new UserError(`${sentence}; nothing was sent`, [...blocked, BLOCKED_ADVICE]);
}

/**
 * Throws a UserError saying what `plan` exceeds (Plan.refusals), unless `force` is set: one
 * refusal in one sentence, several listed with the lines that detail the traffic newly blocked.
 */
export function raiseIfUnsafe(plan: Plan, options: SafetyLimits & { force: boolean }): void {
  if (options.force) return;
  const refusals = plan.refusals(options);
  const sentences = refusals.map(refusalSentence);
  const details = refusals.flatMap((refusal) => (refusal.kind === 'traffic' ? trafficExcessDetails(refusal.excess) : []));
  const [first, ...rest] = sentences;
  if (first === undefined) return;
  if (rest.length === 0) throw new UserError(`${first}; review it and use --force to apply anyway; nothing was sent`, details);
  if (refusals.every((refusal) => refusal.kind === 'limit')) {
    throw new UserError(`${refusals.length} app plans exceed their change limits; review them and use --force to apply anyway`, sentences);
  }
  throw new UserError(`${refusals.length} parts of the plan need --force; review them and use --force to apply anyway; nothing was sent`, [...sentences, ...details]);
}
