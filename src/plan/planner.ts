// The planner: declared rules + one LIST of live rules → the PATCH requests that make the
// live rules equal the rule files, fewest first (docs/behaviour.md, "Plan semantics"). Pure and synchronous: no
// I/O, no clock, no randomness; everything it needs is passed in.
import type { Problem } from '../errors.js';
import { NO_CAPABILITIES, type DeclaredRule, type LiveRule, type PatchBody, type ServiceCapabilities, type SourceLocation, type UnmanagedPolicy } from '../semantics/model.js';
import { canonicalJson, changedFields, identicalInOrder, type RuleField } from '../semantics/canonical.js';
import { ruleChanges } from '../semantics/changes.js';
import { inPriorityOrder } from '../semantics/list-move.js';
import { matchRules, problemAt, type Match } from '../semantics/match.js';
import type { UnknownFieldDrop } from '../semantics/unknown.js';
import { liveSnapshot } from './fingerprint.js';
import { desiredOrder, planMoves, type KeepWeight, type Move } from './order.js';
import type { AppPlan, BlockedRule, CreateStep, DeleteStep, FieldChange, PauseUnmanagedStep, PlanStep } from './types.js';
import { plural } from '../plural.js';
import { definedFields } from '../defined.js';

interface PlanInput {
  app: string;
  /** In declared order (files in lexical path order, rules in file order). */
  declared: readonly DeclaredRule[];
  /** One LIST of the app's rules, in any order (their `priority` decides). */
  live: readonly LiveRule[];
  unmanaged: UnmanagedPolicy;
  /**
   * Where the `unmanaged` policy is set, for the problem that policy `fail` reports (it has
   * no rule file to point at). Default: botrules.yaml, line 1, column 1.
   */
  policySource?: SourceLocation;
  /** What the service accepts besides PATCH (`service` in the config); none when absent. */
  service?: ServiceCapabilities;
}

interface PlanResult {
  plan: AppPlan;
  /** Matching errors and policy `fail` violations. Non-empty: the plan must not be applied. */
  problems: Problem[];
}

/** How many unmanaged rules a policy `fail` problem names before "and N more". */
const NAMED_UNMANAGED = 10;

export function planApp(input: PlanInput): PlanResult {
  const live = inPriorityOrder(input.live);
  const service = input.service ?? NO_CAPABILITIES;
  const matched = matchRules(input.declared, live);
  const problems = [...matched.problems];
  if (input.unmanaged === 'fail' && matched.unmanaged.length > 0) {
    problems.push(unmanagedProblem(input, matched.unmanaged));
  }
  if (input.unmanaged === 'delete' && !service.delete) problems.push(deleteWithoutServiceProblem(input));

  const liveJson = new Map(live.map((rule) => [rule, canonicalJson(rule)]));
  const jsonOf = (rule: LiveRule): string => liveJson.get(rule) ?? canonicalJson(rule);
  const changes = new Map(matched.matches.map((m) => [m.live.ruleId, changedMatch(m, jsonOf)]));
  const unmanagedIds = new Set(matched.unmanaged.map((rule) => rule.ruleId));
  const liveIds = live.map((rule) => rule.ruleId);
  const toCreate = service.create ? createdRules(input.declared, matched.blocked, liveIds) : new Map<DeclaredRule, string>();
  const deleted = input.unmanaged === 'delete' && service.delete ? unmanagedIds : new Set<string>();
  const declaredIds = declaredIdsInOrder(input.declared, matched.matches, toCreate);
  const desiredIds = desiredOrder(liveIds, declaredIds, new Set(toCreate.values()), deleted);
  const weightOf = (ruleId: string): KeepWeight =>
    unmanagedIds.has(ruleId) ? 'pinned' : (changes.get(ruleId)?.fields.length ?? 0) > 0 ? 'changed' : 'unchanged';
  const moves = planMoves(liveIds, desiredIds, weightOf, deleted);
  const snapshot = liveSnapshot(live, jsonOf);
  const declaredById = new Map([...toCreate].map(([rule, id]) => [id, rule]));

  const plan: AppPlan = {
    app: input.app,
    fingerprint: snapshot.fingerprint,
    liveRules: live.length,
    steps: [
      ...deleteSteps(live, deleted),
      ...moveSteps(moves, live, changes, declaredById),
      ...fieldOnlySteps(matched.matches, changes, new Set(moves.map((m) => m.ruleId))),
      ...(input.unmanaged === 'pause' ? pauseSteps(matched.unmanaged) : []),
    ],
    blocked: service.create ? [] : placeBlocked(input.declared, matched.matches, matched.blocked, desiredIds),
    unmanaged: matched.unmanaged.map((rule) => ({ ruleId: rule.ruleId, name: rule.name, status: rule.status })),
    liveDigests: snapshot.digests,
  };
  return { plan, problems };
}

/**
 * The declared rules no live rule matches (the blocked ones), each with the placeholder id
 * its create step carries: `new-1`, `new-2`, … in declared order, behind a prefix no live id
 * starts with, so a placeholder can never name a live rule.
 */
function createdRules(declared: readonly DeclaredRule[], blocked: readonly BlockedRule[], liveIds: readonly string[]): Map<DeclaredRule, string> {
  const at = (source: SourceLocation | undefined): string => (source === undefined ? '' : `${source.file}:${source.line}:${source.col}`);
  const blockedAt = new Set(blocked.map((rule) => at(rule.source)));
  let prefix = 'new-';
  while (liveIds.some((id) => id.startsWith(prefix))) prefix = `n${prefix}`;
  const created = new Map<DeclaredRule, string>();
  for (const rule of declared) if (blockedAt.has(at(rule.source))) created.set(rule, `${prefix}${created.size + 1}`);
  return created;
}

/** The ids of the declared rules in declared order: the live rule each matches, or its placeholder. */
function declaredIdsInOrder(declared: readonly DeclaredRule[], matches: readonly Match[], created: ReadonlyMap<DeclaredRule, string>): string[] {
  const liveIdOf = new Map(matches.map((m) => [m.declared, m.live.ruleId]));
  return declared.map((rule) => liveIdOf.get(rule) ?? created.get(rule)).filter((id): id is string => id !== undefined);
}

interface ChangedMatch {
  match: Match;
  /** Changed top-level fields, in RULE_FIELDS order. */
  fields: RuleField[];
}

function changedMatch(match: Match, jsonOf: (rule: LiveRule) => string): ChangedMatch {
  const same = identicalInOrder(match.live, match.declared) || jsonOf(match.live) === canonicalJson(match.declared);
  return { match, fields: same ? [] : changedFields(match.live, match.declared) };
}

/**
 * Each changed field with its live value and the declared value as the user wrote it (the
 * value sent), the body that sends exactly the after values, and the unknown live fields
 * that body removes (src/semantics/changes.ts).
 */
function changesOf(change: ChangedMatch | undefined): { changes: FieldChange[]; body: PatchBody; drops: UnknownFieldDrop[] } {
  if (change === undefined || change.fields.length === 0) return { changes: [], body: {}, drops: [] };
  return ruleChanges(change.match.live, change.match.declared, change.fields);
}

/** `dropsUnknown`, only on a step that drops something. */
function dropsField(drops: readonly UnknownFieldDrop[]): { dropsUnknown?: UnknownFieldDrop[] } {
  return drops.length === 0 ? {} : { dropsUnknown: drops.map((drop) => ({ ...drop })) };
}

function moveSteps(
  moves: readonly Move[],
  live: readonly LiveRule[],
  changes: ReadonlyMap<string, ChangedMatch>,
  created: ReadonlyMap<string, DeclaredRule>,
): PlanStep[] {
  return moves.map((move): PlanStep => {
    if (move.from < 0) return createStep(move, created.get(move.ruleId) as DeclaredRule);
    const rule = live[move.from] as LiveRule;
    const change = changes.get(move.ruleId);
    const fields = changesOf(change);
    const position = { field: 'priority' as const, before: move.from, after: move.to };
    const common = { ruleId: move.ruleId, name: change?.match.declared.name ?? rule.name, body: { ...fields.body, priority: move.priority }, ...dropsField(fields.drops) };
    if (fields.changes.length === 0) return { ...common, kind: 'move', changes: [position] };
    return { ...common, kind: 'update-and-move', changes: [...fields.changes, position] };
  });
}

/** One POST: the declared rule whole, and the index to insert it at; never its ruleId. */
function createStep(move: Move, rule: DeclaredRule): CreateStep {
  const body: PatchBody = {
    name: rule.name,
    description: rule.description,
    status: rule.status,
    actions: [...rule.actions],
    conditions: structuredClone(rule.conditions),
    priority: move.priority,
  };
  return { ruleId: move.ruleId, name: rule.name, kind: 'create', body, changes: [], position: move.to };
}

/** Policy `delete` with service.delete: one DELETE per unmanaged rule, first, in live order. */
function deleteSteps(live: readonly LiveRule[], deleted: ReadonlySet<string>): DeleteStep[] {
  return live.flatMap((rule, position): DeleteStep[] =>
    deleted.has(rule.ruleId) ? [{ ruleId: rule.ruleId, name: rule.name, kind: 'delete', body: {}, changes: [], position }] : []);
}

function fieldOnlySteps(
  matches: readonly Match[],
  changes: ReadonlyMap<string, ChangedMatch>,
  moved: ReadonlySet<string>,
): PlanStep[] {
  const steps: PlanStep[] = [];
  for (const match of matches) {
    const change = changes.get(match.live.ruleId);
    if (change === undefined || change.fields.length === 0 || moved.has(match.live.ruleId)) continue;
    const fields = changesOf(change);
    steps.push({ ruleId: match.live.ruleId, name: match.declared.name, kind: 'update', body: fields.body, changes: fields.changes, ...dropsField(fields.drops) });
  }
  return steps;
}

/**
 * Where each blocked rule belongs in the console, so the user can create it there: directly
 * below the declared rule before it, at the position that rule has once the plan has run.
 */
function placeBlocked(
  declared: readonly DeclaredRule[],
  matches: readonly Match[],
  blocked: readonly BlockedRule[],
  desiredIds: readonly string[],
): BlockedRule[] {
  const liveIdOf = new Map(matches.map((m) => [m.declared, m.live.ruleId]));
  const finalIndex = new Map(desiredIds.map((ruleId, index) => [ruleId, index]));
  const at = (source: SourceLocation | undefined): string => (source === undefined ? '' : `${source.file}:${source.line}:${source.col}`);
  const blockedAt = new Map(blocked.map((rule) => [at(rule.source), rule]));
  let lastLiveIndex = -1;
  let sinceLast = 0;
  let previous: string | undefined;
  const placed: BlockedRule[] = [];
  for (const rule of declared) {
    const ruleId = liveIdOf.get(rule);
    const found = ruleId === undefined ? blockedAt.get(at(rule.source)) : undefined;
    if (ruleId !== undefined) {
      lastLiveIndex = finalIndex.get(ruleId) ?? lastLiveIndex;
      sinceLast = 0;
    } else if (found !== undefined) {
      sinceLast += 1;
      placed.push({ ...found, actions: [...rule.actions], position: lastLiveIndex + 1 + sinceLast, ...definedFields({ below: previous }) });
    } else continue;
    previous = rule.name;
  }
  return placed;
}

/** Policy `pause`: active unmanaged rules are paused where they stand. */
function pauseSteps(unmanaged: readonly LiveRule[]): PauseUnmanagedStep[] {
  return unmanaged
    .filter((rule) => rule.status === 'active')
    .map((rule) => ({
      ruleId: rule.ruleId,
      name: rule.name,
      kind: 'pause-unmanaged',
      body: { status: 'paused' },
      changes: [{ field: 'status', before: 'active', after: 'paused' }],
    }));
}

function unmanagedProblem(input: PlanInput, unmanaged: readonly LiveRule[]): Problem {
  const named = unmanaged.slice(0, NAMED_UNMANAGED).map((rule) => `"${rule.name}" (${rule.ruleId})`);
  const more = unmanaged.length - named.length;
  const count = plural(unmanaged.length, 'live rule');
  return problemAt(
    input.policySource ?? { file: 'botrules.yaml', line: 1, col: 1 },
    `app "${input.app}" has unmanaged: fail, and ${count} no rule file declares: ${named.join(', ')}` +
      `${more > 0 ? ` and ${more} more` : ''}; declare them (\`botrules import\` writes them as files) ` +
      'or set unmanaged: keep or pause',
  );
}

function deleteWithoutServiceProblem(input: PlanInput): Problem {
  return problemAt(
    input.policySource ?? { file: 'botrules.yaml', line: 1, col: 1 },
    `app "${input.app}" has unmanaged: delete, but its service does not delete rules: set service.delete: true ` +
      '(when the service accepts DELETE) or choose unmanaged: keep, pause or fail',
  );
}
