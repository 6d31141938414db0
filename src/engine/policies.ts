// The policy checks of validate, plan and diff (docs/behaviour.md, "Policies"): every policy
// of the project proved for each app it applies to, over one rule list per app, under one time
// budget for the whole command (set-up included), and the built-in policies over the declared
// rules. A policy the budget did not reach is unchecked and says which option gives more.
import { builtinFindings } from '../validate/builtin-policies.js';
import { provePolicy, type PolicyVerdict } from '../diff/policy.js';
import { definedFields } from '../defined.js';
import { OUT_OF_TIME } from '../diff/regions.js';
import type { PolicyFinding } from '../render/policies/model.js';
import type { PolicyChange } from '../render/diff/index.js';
import type { BuiltinPolicyId, BuiltinPolicyLevel } from '../rules/written-config.js';
import { appliesTo, type RequestPolicy } from '../rules/policies.js';
import type { DeclaredRule, LiveRule, NormalRule, SourceLocation } from '../semantics/model.js';
import { inPriorityOrder, simulateSteps } from '../semantics/list-move.js';
import type { PlanStep } from '../plan/types.js';

/** Seconds all policy checks of one command may take by default. */
export const DEFAULT_POLICY_BUDGET_SECONDS = 30;

interface PolicyRun {
  /** Date.now() milliseconds after which nothing more is searched. */
  deadline: number;
  budgetSeconds: number;
}

export function policyRun(budgetSeconds: number, started = Date.now()): PolicyRun {
  return { deadline: started + budgetSeconds * 1000, budgetSeconds };
}

/** One app's rules in priority order, and where each rule is written (by name) when known. */
interface PolicyTarget {
  app: string;
  rules: readonly NormalRule[];
  locations: ReadonlyMap<string, SourceLocation>;
}

/** Every policy for every app it applies to. */
export function checkPolicies(policies: readonly RequestPolicy[], targets: readonly PolicyTarget[], run: PolicyRun): PolicyFinding[] {
  return targets.flatMap((target) => policies.filter((policy) => appliesTo(policy, target.app)).map((policy) => findingOf(policy, target, prove(policy, target.rules, run))));
}

function prove(policy: RequestPolicy, rules: readonly NormalRule[], run: PolicyRun): PolicyVerdict {
  return provePolicy(policy, rules, { deadline: run.deadline, budgetHint: `the policies had ${run.budgetSeconds} s; --policy-budget SECONDS gives them more` });
}

function findingOf(policy: RequestPolicy, target: Pick<PolicyTarget, 'app' | 'locations'>, verdict: PolicyVerdict): PolicyFinding {
  const base = { policy: policy.name, builtin: false, level: policy.level, app: target.app, at: policy.source };
  if (verdict.verdict === 'holds') return { ...base, verdict: 'holds', grounds: { kind: 'proved' } };
  if (verdict.verdict === 'unchecked') {
    const outOfBudget = verdict.unchecked.some((part) => part.reason.startsWith(OUT_OF_TIME));
    return { ...base, verdict: 'unchecked', grounds: { kind: 'undecided', parts: verdict.unchecked }, ...(outOfBudget ? { outOfBudget: true } : {}) };
  }
  const ruleName = verdict.decided.rule;
  const ruleAt = ruleName === undefined ? undefined : target.locations.get(ruleName);
  return {
    ...base,
    verdict: 'violated',
    grounds: { kind: 'counterexample', outcome: verdict.outcome, expect: policy.expect },
    ...(ruleName === undefined ? {} : { rule: { name: ruleName, ...definedFields({ at: ruleAt }) } }),
    example: verdict.witness,
    through: verdict.through,
  };
}

/** The built-in policies over one app's declared rules, each at its rule. */
export function builtinPolicyFindings(app: string, rules: readonly DeclaredRule[], levels: Partial<Record<BuiltinPolicyId, BuiltinPolicyLevel>> | undefined): PolicyFinding[] {
  return builtinFindings(rules, levels).map((found) => ({
    policy: found.policy, builtin: true, level: found.level, app, at: found.rule.source, verdict: found.verdict ?? 'violated',
    grounds: { kind: 'worded', text: found.message }, rule: { name: found.rule.name, at: found.rule.source },
  }));
}

/** Where each declared rule is written, by name. */
export function ruleLocations(rules: readonly DeclaredRule[]): Map<string, SourceLocation> {
  return new Map(rules.map((rule) => [rule.name, rule.source]));
}

/**
 * The policies over the rules as apply would leave each app (the live rules with the plan's
 * steps), each violated or unchecked one also proved over the live rules as they are, so the
 * report can say whether the plan breaks it or the past did. The built-in policies run over
 * the declared rules, as validate runs them.
 */
export function plannedPolicyFindings(
  policies: readonly RequestPolicy[],
  planned: readonly { app: string; declared: readonly DeclaredRule[]; live: readonly LiveRule[]; steps: readonly PlanStep[] }[],
  levels: Partial<Record<BuiltinPolicyId, BuiltinPolicyLevel>> | undefined,
  run: PolicyRun,
): PolicyFinding[] {
  return planned.flatMap(({ app, declared, live, steps }) => {
    const after = simulateSteps(live, steps);
    const before = inPriorityOrder(live);
    const target = { app, locations: ruleLocations(declared) };
    const own = policies.filter((policy) => appliesTo(policy, app)).map((policy): PolicyFinding => {
      const finding = findingOf(policy, target, prove(policy, after, run));
      return finding.verdict === 'holds' ? finding : { ...finding, live: prove(policy, before, run).verdict };
    });
    return [...own, ...builtinPolicyFindings(app, declared, levels)];
  });
}

/** The policies for `app` whose verdict differs between `before` and `after` (each in priority order). */
export function policyChanges(policies: readonly RequestPolicy[], app: string, before: readonly NormalRule[], after: readonly NormalRule[], run: PolicyRun): PolicyChange[] {
  return policies.filter((policy) => appliesTo(policy, app)).flatMap((policy) => {
    const was = findingOf(policy, { app, locations: declaredLocations(before) }, prove(policy, before, run));
    const will = findingOf(policy, { app, locations: declaredLocations(after) }, prove(policy, after, run));
    return was.verdict === will.verdict ? [] : [{ before: was, after: will }];
  });
}

/** Where the rules of a rules directory or file are written (a snapshot's rules have no place). */
function declaredLocations(rules: readonly NormalRule[]): Map<string, SourceLocation> {
  return new Map(rules.flatMap((rule) => ('source' in rule ? [[rule.name, (rule as DeclaredRule).source] as const] : [])));
}
