// A saved plan is only valid for the live rules it was computed from. Before applying it,
// each app is listed again; a different fingerprint means someone changed the rules in the
// meantime (in the console, or another apply), and the plan's bodies and positions may now
// do the wrong thing. The refusal says when the live rules are exactly the plan's result
// (the plan was already applied), and otherwise names the rules that changed, with the rules
// that only moved (every rule below a moved one shifts) summarised as a count.
import { UserError } from '../errors.js';
import { canonicalJson } from '../semantics/canonical.js';
import { fingerprintRules, inPriorityOrder, label, ruleDigest } from '../plan/fingerprint.js';
import { createdRule, simulateSteps } from '../semantics/list-move.js';
import { fieldChanges, positionChange, type AppPlan } from '../plan/types.js';
import type { LiveRule } from '../semantics/model.js';
import { normaliseLiveRule } from '../semantics/normalise.js';
import { noun, plural } from '../plural.js';

/** How many rules a refusal names before "and N more". */
const NAMED_RULES = 10;
/** Digests tried to tell a moved rule from a changed one (rules × positions); beyond it, every rule counts as changed. */
const MOVED_SEARCH_LIMIT = 200_000;

/** The sentence describing how an app's live rules drifted from the plan, or undefined when they did not. */
export function staleness(plan: AppPlan, live: readonly LiveRule[]): string | undefined {
  const now = fingerprintRules(live);
  if (now === plan.fingerprint) return undefined;
  const created = alreadyApplied(plan, live, now);
  if (created !== undefined) {
    const steps = `this plan was already applied: the live rules of app ${plan.app} are exactly what its ${plan.steps.length} steps make them`;
    return created.length === 0 ? `${steps}.` : `${steps} (the service gave the ${noun(created.length, 'rule it created its ruleId', 'rules it created their ruleIds')}: ${created.join(', ')}).`;
  }
  const { changed, added, removed, moved } = changesSince(plan, live);
  const named = [
    ...changed.map((rule) => `${rule} changed`),
    ...added.map((rule) => `${rule} was added`),
    ...removed.map((rule) => `${rule} was removed`),
  ];
  const parts = named.length > NAMED_RULES ? [...named.slice(0, NAMED_RULES), `${named.length - NAMED_RULES} more changed`] : named;
  if (moved > 0) parts.push(`${plural(moved, named.length > 0 ? 'other rule' : 'rule')} only moved`);
  const what = parts.length > 0 ? `: ${parts.join(', ')}` : ' (the plan does not record which rules)';
  return `the live rules of app ${plan.app} changed since the plan was made${what}.`;
}

/** Throws one UserError naming every app whose live rules changed since the plan. */
export function refuseIfStale(apps: readonly { plan: AppPlan; live: readonly LiveRule[] }[]): void {
  const stale = apps.map((a) => staleness(a.plan, a.live)).filter((s): s is string => s !== undefined);
  if (stale.length === 0) return;
  const [first, ...rest] = stale as [string, ...string[]];
  const advice = stale.every((s) => s.startsWith('this plan was already applied'))
    ? 'Nothing was sent, and nothing is left to do: botrules plan shows what, if anything, the rule files still change.'
    : 'Run botrules plan again, review it, and apply the new plan.';
  throw new UserError(first, [...rest, advice]);
}

/**
 * True when `live` is exactly what the plan makes of the rules it was computed from: the plan's
 * steps are undone on the live rules (each field back to its `before`, each moved rule back to
 * its position, each created rule taken out, each deleted rule's place held open, the others in
 * their order), and that must give the rules the plan records and, re-applied, the live rules again.
 * Returns the created rules as `"Name" (ruleId)` (none for a plan that creates none); undefined: not applied.
 */
function alreadyApplied(plan: AppPlan, live: readonly LiveRule[], liveFingerprint: string): string[] | undefined {
  if (plan.steps.length === 0) return undefined;
  const ordered = inPriorityOrder(live);
  const created = createdRules(plan, ordered);
  if (created === undefined) return undefined;
  // The service gave each created rule its own id: the plan's placeholder stands for it again.
  const renamed = ordered.map((rule) => (created.has(rule.ruleId) ? { ...rule, ruleId: created.get(rule.ruleId) as string } : rule));
  const before = undone(plan, renamed, new Set(created.values()));
  if (before === undefined || !recorded(plan, before)) return undefined;
  const again = fingerprintRules(simulateSteps(before, plan.steps));
  if (again !== (created.size === 0 ? liveFingerprint : fingerprintRules(renamed))) return undefined;
  return ordered.filter((rule) => created.has(rule.ruleId)).map((rule) => label(rule.name, rule.ruleId));
}

/**
 * The live rules the plan's create steps made (live ruleId → the step's placeholder id): the
 * rule at each step's final position, with the step's fields and an id the plan never saw.
 * Undefined when one is not there.
 */
function createdRules(plan: AppPlan, ordered: readonly LiveRule[]): Map<string, string> | undefined {
  const created = new Map<string, string>();
  for (const step of plan.steps) {
    if (step.kind !== 'create') continue;
    const rule = ordered[step.position];
    const known = rule !== undefined && (created.has(rule.ruleId) || (plan.liveDigests !== undefined && Object.hasOwn(plan.liveDigests, rule.ruleId)));
    if (rule === undefined || known || canonicalJson(rule) !== canonicalJson(createdRule(step))) return undefined;
    created.set(rule.ruleId, step.ruleId);
  }
  return created;
}

/**
 * A deleted rule's place in the rules as they were: its id and name; its other fields are gone
 * with it, so it stands in with none (`recorded` checks only its id).
 */
function placeholder(ruleId: string, name: string, priority: number): LiveRule {
  return normaliseLiveRule({ name, status: 'paused', actions: [], conditions: { operator: '$or', children: [] } }, 'a deleted rule', ruleId, priority);
}

function undone(plan: AppPlan, live: readonly LiveRule[], createdIds: ReadonlySet<string>): LiveRule[] | undefined {
  const kept = live.filter((rule) => !createdIds.has(rule.ruleId));
  const rules = new Map(kept.map((rule) => [rule.ruleId, { ...rule } as LiveRule]));
  const deletes = plan.steps.filter((step) => step.kind === 'delete').length;
  const slots: (LiveRule | undefined)[] = Array.from({ length: kept.length + deletes }, () => undefined);
  for (const step of plan.steps) {
    if (step.kind === 'create') continue;
    if (step.kind === 'delete') {
      if (rules.has(step.ruleId) || step.position >= slots.length || slots[step.position] !== undefined) return undefined;
      slots[step.position] = placeholder(step.ruleId, step.name, step.position);
      continue;
    }
    const rule = rules.get(step.ruleId);
    if (rule === undefined) return undefined;
    for (const change of fieldChanges(step)) Object.assign(rule, { [change.field]: structuredClone(change.before) });
    const position = positionChange(step);
    if (position === undefined) continue;
    if (position.before >= slots.length || slots[position.before] !== undefined) return undefined;
    slots[position.before] = rule;
  }
  const placed = new Set(slots.filter((rule) => rule !== undefined).map((rule) => rule.ruleId));
  const others = kept.filter((rule) => !placed.has(rule.ruleId)).map((rule) => rules.get(rule.ruleId) as LiveRule);
  if (others.length !== slots.filter((slot) => slot === undefined).length) return undefined;
  return slots.map((slot, priority) => ({ ...(slot ?? (others.shift() as LiveRule)), priority }));
}

/**
 * True when `before` are the rules the plan was computed from: its fingerprint, or, when a
 * deleted rule's fields are gone, every other rule's recorded digest and the deleted rules' ids.
 */
function recorded(plan: AppPlan, before: readonly LiveRule[]): boolean {
  const deleted = new Set(plan.steps.filter((step) => step.kind === 'delete').map((step) => step.ruleId));
  if (deleted.size === 0) return fingerprintRules(before) === plan.fingerprint;
  const digests = plan.liveDigests;
  if (digests === undefined || Object.keys(digests).length !== before.length) return false;
  return before.every((rule) => Object.hasOwn(digests, rule.ruleId) && (deleted.has(rule.ruleId) || digests[rule.ruleId] === ruleDigest(rule)));
}

interface ChangesSince {
  /** `"Name" (ruleId)` of each rule whose fields changed. */
  changed: string[];
  added: string[];
  removed: string[];
  /** Rules whose fields are as they were, only at another position. */
  moved: number;
}

/** What changed since the plan, by the per-rule digests it records; none recorded: all empty. */
function changesSince(plan: AppPlan, live: readonly LiveRule[]): ChangesSince {
  const result: ChangesSince = { changed: [], added: [], removed: [], moved: 0 };
  const digests = plan.liveDigests;
  if (digests === undefined) return result;
  const positions = Math.max(plan.liveRules, live.length);
  const ordered = inPriorityOrder(live);
  const searchable = ordered.length * positions <= MOVED_SEARCH_LIMIT;
  for (const rule of ordered) {
    const then = Object.hasOwn(digests, rule.ruleId) ? digests[rule.ruleId] : undefined;
    if (then === undefined) result.added.push(label(rule.name, rule.ruleId));
    else if (then === ruleDigest(rule)) continue;
    else if (searchable && onlyMoved(rule, then, positions)) result.moved += 1;
    else result.changed.push(label(rule.name, rule.ruleId));
  }
  const listed = new Set(live.map((rule) => rule.ruleId));
  const names = new Map([...plan.unmanaged, ...plan.steps].map((rule) => [rule.ruleId, rule.name]));
  for (const ruleId of Object.keys(digests).filter((id) => !listed.has(id))) {
    const name = names.get(ruleId);
    result.removed.push(name === undefined ? `ruleId ${ruleId}` : label(name, ruleId));
  }
  return result;
}

/** True when the recorded digest is this rule's at some other position: its fields did not change. */
function onlyMoved(rule: LiveRule, recorded: string, positions: number): boolean {
  const json = canonicalJson(rule);
  for (let priority = 0; priority < positions; priority += 1) {
    if (priority !== rule.priority && ruleDigest({ ...rule, priority }, () => json) === recorded) return true;
  }
  return false;
}
