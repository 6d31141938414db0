// The policy checks of validate, plan and diff (docs/behaviour.md, "Policies"): every policy
// of the project proved for each app it applies to, over one rule list per app, under one time
// budget for the whole command (set-up included), and the built-in policies over the declared
// rules. A policy the budget did not reach is unchecked and says which option gives more.
import { builtinFindings } from '../analysis/builtin-policies.js';
import { provePolicy, type PolicyVerdict } from '../behaviour/policy.js';
import { describeRequest } from '../analysis/witness.js';
import type { PolicyFinding } from '../render/policies/model.js';
import type { BuiltinPolicyId, BuiltinPolicyLevel } from '../rules/config.js';
import { appliesTo, type RequestPolicy } from '../rules/policies.js';
import type { DeclaredRule, NormalRule, SourceLocation } from '../semantics/model.js';

/** Seconds all policy checks of one command may take by default. */
export const DEFAULT_POLICY_BUDGET_SECONDS = 30;

export interface PolicyRun {
  /** Date.now() milliseconds after which nothing more is searched. */
  deadline: number;
  budgetSeconds: number;
}

export function policyRun(budgetSeconds: number, started = Date.now()): PolicyRun {
  return { deadline: started + budgetSeconds * 1000, budgetSeconds };
}

/** One app's rules in priority order, and where each rule is written (by name) when known. */
export interface PolicyTarget {
  app: string;
  rules: readonly NormalRule[];
  locations: ReadonlyMap<string, SourceLocation>;
}

/** Every policy for every app it applies to. */
export function checkPolicies(policies: readonly RequestPolicy[], targets: readonly PolicyTarget[], run: PolicyRun): PolicyFinding[] {
  return targets.flatMap((target) => policies.filter((policy) => appliesTo(policy, target.app)).map((policy) => findingOf(policy, target, prove(policy, target.rules, run))));
}

export function prove(policy: RequestPolicy, rules: readonly NormalRule[], run: PolicyRun): PolicyVerdict {
  return provePolicy(policy, rules, { deadline: run.deadline, budgetHint: `the policies had ${run.budgetSeconds} s; --policy-budget SECONDS gives them more` });
}

export function findingOf(policy: RequestPolicy, target: Pick<PolicyTarget, 'app' | 'locations'>, verdict: PolicyVerdict): PolicyFinding {
  const base = { policy: policy.name, builtin: false, level: policy.level, app: target.app, at: policy.source };
  const named = `policy ${JSON.stringify(policy.name)}`;
  if (verdict.verdict === 'holds') return { ...base, verdict: 'holds', message: `${named} holds for app ${target.app}: proved for every request of its class` };
  if (verdict.verdict === 'unchecked') {
    const parts = verdict.unchecked.map((part) => `${part.reason}${part.rules.length === 0 ? '' : ` (rules ${part.rules.map((rule) => JSON.stringify(rule)).join(', ')})`}`);
    return { ...base, verdict: 'unchecked', message: `${named} could not be checked for app ${target.app}: ${parts.join('; ')}; it is not known to hold` };
  }
  const ruleName = verdict.decided.rule;
  const ruleAt = ruleName === undefined ? undefined : target.locations.get(ruleName);
  const by = ruleName === undefined
    ? 'is decided by no rule (outcome none)'
    : `gets ${verdict.outcome} from rule ${JSON.stringify(ruleName)}${ruleAt === undefined ? '' : ` (${ruleAt.file}:${ruleAt.line}:${ruleAt.col})`}`;
  const through = verdict.through.length === 0 ? '' : ` through ${verdict.through.map((step) => `${step.path} (${step.condition})`).join(' and ')}`;
  const wanted = 'decidedBy' in policy.expect ? `it must be decided by rule ${JSON.stringify(policy.expect.decidedBy)}` : `the policy allows ${policy.expect.outcome.join(', ')}`;
  return {
    ...base,
    verdict: 'violated',
    message: `Policy violated: ${JSON.stringify(policy.name)} for app ${target.app}: for example the request ${describeRequest(verdict.witness)} ${by}${through}; ${wanted}`,
    ...(ruleName === undefined ? {} : { rule: { name: ruleName, ...(ruleAt === undefined ? {} : { at: ruleAt }) } }),
    example: verdict.witness,
    through: verdict.through,
  };
}

/** The built-in policies over one app's declared rules, each at its rule. */
export function builtinPolicyFindings(app: string, rules: readonly DeclaredRule[], levels: Partial<Record<BuiltinPolicyId, BuiltinPolicyLevel>> | undefined): PolicyFinding[] {
  return builtinFindings(rules, levels).map((found) => ({
    policy: found.policy, builtin: true, level: found.level, app, at: found.rule.source, verdict: 'violated',
    message: found.message, rule: { name: found.rule.name, at: found.rule.source },
  }));
}

/** Where each declared rule is written, by name. */
export function ruleLocations(rules: readonly DeclaredRule[]): Map<string, SourceLocation> {
  return new Map(rules.map((rule) => [rule.name, rule.source]));
}
