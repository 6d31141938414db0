// The planner: declared rules + one LIST of live rules → the PATCH requests that make the
// live rules equal the rule files, fewest first (contract §4). Pure and synchronous: no
// I/O, no clock, no randomness; everything it needs is passed in.
import type { Problem } from '../errors.js';
import type { DeclaredRule, LiveRule, PatchBody, Rule, SourceLocation } from '../rules/model.js';
import { canonicalJson, changedFields, identicalInOrder, type RuleField } from './canonical.js';
import { inPriorityOrder, liveSnapshot } from './fingerprint.js';
import { matchRules, problemAt, type Match } from './match.js';
import { desiredOrder, planMoves, type KeepWeight, type Move } from './order.js';
import { PRIORITY_REASON, UNMANAGED_REASON } from './types.js';
import type { UnmanagedPolicy } from '../rules/config.js';
import type { AppPlan, PlanStep } from './types.js';

export interface PlanInput {
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
}

export interface PlanResult {
  plan: AppPlan;
  /** Matching errors and policy `fail` violations. Non-empty: the plan must not be applied. */
  problems: Problem[];
}

/** How many unmanaged rules a policy `fail` problem names before "and N more". */
const NAMED_UNMANAGED = 10;

export function planApp(input: PlanInput): PlanResult {
  const live = inPriorityOrder(input.live);
  const matched = matchRules(input.declared, live);
  const problems = [...matched.problems];
  if (input.unmanaged === 'fail' && matched.unmanaged.length > 0) {
    problems.push(unmanagedProblem(input, matched.unmanaged));
  }

  const liveJson = new Map(live.map((rule) => [rule, canonicalJson(rule)]));
  const jsonOf = (rule: LiveRule): string => liveJson.get(rule) ?? canonicalJson(rule);
  const changes = new Map(matched.matches.map((m) => [m.live.ruleId, fieldChanges(m, jsonOf)]));
  const unmanagedIds = new Set(matched.unmanaged.map((rule) => rule.ruleId));
  const liveIds = live.map((rule) => rule.ruleId);
  const desiredIds = desiredOrder(liveIds, matched.matches.map((m) => m.live.ruleId));
  const weightOf = (ruleId: string): KeepWeight =>
    unmanagedIds.has(ruleId) ? 'pinned' : (changes.get(ruleId)?.fields.length ?? 0) > 0 ? 'changed' : 'unchanged';
  const moves = planMoves(liveIds, desiredIds, weightOf);
  const snapshot = liveSnapshot(live, jsonOf);

  const plan: AppPlan = {
    app: input.app,
    fingerprint: snapshot.fingerprint,
    steps: [
      ...moveSteps(moves, live, changes),
      ...fieldOnlySteps(matched.matches, changes, new Set(moves.map((m) => m.ruleId))),
      ...(input.unmanaged === 'pause' ? pauseSteps(matched.unmanaged) : []),
    ],
    blocked: matched.blocked,
    unmanaged: matched.unmanaged.map((rule) => ({ ruleId: rule.ruleId, name: rule.name })),
    liveDigests: snapshot.digests,
  };
  return { plan, problems };
}

interface FieldChanges {
  match: Match;
  /** Changed top-level fields, in RULE_FIELDS order. */
  fields: RuleField[];
}

function fieldChanges(match: Match, jsonOf: (rule: LiveRule) => string): FieldChanges {
  const same = identicalInOrder(match.live, match.declared) || jsonOf(match.live) === canonicalJson(match.declared);
  return { match, fields: same ? [] : changedFields(match.live, match.declared) };
}

/** The declared values of the changed fields, as the user wrote them. */
function declaredBody(change: FieldChanges | undefined): PatchBody {
  const body: PatchBody = {};
  if (change === undefined) return body;
  const declared = change.match.declared;
  for (const field of change.fields) {
    if (field === 'name') body.name = declared.name;
    else if (field === 'description') body.description = declared.description ?? '';
    else if (field === 'status') body.status = declared.status ?? 'active';
    else if (field === 'actions') body.actions = [...declared.actions];
    else body.conditions = structuredClone(declared.conditions);
  }
  return body;
}

/** The rule as it will be once `body` is sent (priority aside), for rendering. */
function afterBody(rule: LiveRule, body: PatchBody): Rule {
  const { priority: _priority, ...fields } = body;
  return { ...plainRule(rule), ...fields };
}

function plainRule(rule: LiveRule): Rule {
  const { priority: _priority, ...fields } = rule;
  return fields;
}

function moveSteps(moves: readonly Move[], live: readonly LiveRule[], changes: ReadonlyMap<string, FieldChanges>): PlanStep[] {
  return moves.map((move) => {
    const rule = live[move.from] as LiveRule;
    const change = changes.get(move.ruleId);
    const fields = declaredBody(change);
    return {
      ruleId: move.ruleId,
      name: change?.match.declared.name ?? rule.name,
      reasons: [...(change?.fields ?? []), PRIORITY_REASON],
      body: { ...fields, priority: move.priority },
      display: { from: move.from, to: move.to, before: plainRule(rule), after: afterBody(rule, fields) },
    };
  });
}

function fieldOnlySteps(
  matches: readonly Match[],
  changes: ReadonlyMap<string, FieldChanges>,
  moved: ReadonlySet<string>,
): PlanStep[] {
  const steps: PlanStep[] = [];
  for (const match of matches) {
    const change = changes.get(match.live.ruleId);
    if (change === undefined || change.fields.length === 0 || moved.has(match.live.ruleId)) continue;
    const body = declaredBody(change);
    steps.push({
      ruleId: match.live.ruleId,
      name: match.declared.name,
      reasons: [...change.fields],
      body,
      display: { before: plainRule(match.live), after: afterBody(match.live, body) },
    });
  }
  return steps;
}

/** Policy `pause`: active unmanaged rules are paused where they stand. */
function pauseSteps(unmanaged: readonly LiveRule[]): PlanStep[] {
  return unmanaged
    .filter((rule) => rule.status === 'active')
    .map((rule) => ({
      ruleId: rule.ruleId,
      name: rule.name,
      reasons: [UNMANAGED_REASON],
      body: { status: 'paused' as const },
      display: { before: plainRule(rule), after: { ...plainRule(rule), status: 'paused' as const } },
    }));
}

function unmanagedProblem(input: PlanInput, unmanaged: readonly LiveRule[]): Problem {
  const named = unmanaged.slice(0, NAMED_UNMANAGED).map((rule) => `"${rule.name}" (${rule.ruleId})`);
  const more = unmanaged.length - named.length;
  const count = unmanaged.length === 1 ? '1 live rule' : `${unmanaged.length} live rules`;
  return problemAt(
    input.policySource ?? { file: 'botrules.yaml', line: 1, col: 1 },
    `app "${input.app}" has unmanaged: fail, and ${count} no rule file declares: ${named.join(', ')}` +
      `${more > 0 ? ` and ${more} more` : ''}; declare them (\`botrules import\` writes them as files) ` +
      'or set unmanaged: keep or pause',
  );
}
