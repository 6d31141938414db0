// The rule-set analysis as first written: every rule compared with every earlier rule, in
// order. Quadratic, and kept here as the reference the indexed analysis in src/validate/ must
// agree with exactly (same findings, same messages, same order): see fast-path.property.test.ts.
import { conditionsVerdict } from '../../src/evaluate/evaluate.js';
import type { TestRequest } from '../../src/evaluate/request.js';
import type { Action, Conditions, DeclaredRule } from '../../src/semantics/model.js';
import { canonicalConditions } from '../../src/semantics/canonical.js';
import { catchAll, contradiction, unsatisfiable } from '../../src/validate/conditions.js';
import { implies } from '../../src/validate/prover.js';
import { candidatesForBoth, describeRequest } from '../../src/validate/witness.js';
import type { CheckId, Finding } from '../../src/validate/checks.js';
import { emptyGroups } from '../../src/validate/empty-groups.js';

const BLOCKING: readonly Action[] = ['hardBlock', 'blockWithChallenge'];

/** `rules` of one app in declared (priority) order. */
export function analyseRulesPairwise(rules: readonly DeclaredRule[]): Finding[] {
  const findings: Finding[] = [];
  const at = (rule: DeclaredRule, check: CheckId, message: string, severity: Finding['severity'] = 'warning') =>
    findings.push({ check, severity, ...rule.source, message });
  const trees = rules.map((rule) => rule.conditions);
  const canonical = rules.map((rule) => JSON.stringify(canonicalConditions(rule.conditions)));
  const dead = rules.map((rule) => unsatisfiable(rule.conditions));

  rules.forEach((rule, index) => {
    for (const message of emptyGroups(rule)) at(rule, 'empty-group', message);
    rule.conditions.children.forEach((group, g) => {
      const why = contradiction(group);
      if (why !== undefined) at(rule, 'unsatisfiable-group', `group ${g + 1} of rule ${quote(rule)} can match no request: ${why}`);
    });
    if (rule.status !== 'active') return;
    const always = catchAllReason(rule);
    const later = rules.length - index - 1;
    if (always !== undefined && later > 0) {
      at(rule, 'catch-all', `rule ${quote(rule)} matches every request (${always}), so none of the ${later} rule${later === 1 ? '' : 's'} after it can decide`);
    }
    const twin = rules.findIndex((other, i) => i < index && canonical[i] === canonical[index]);
    if (twin >= 0) {
      const earlier = rules[twin] as DeclaredRule;
      at(rule, 'duplicate-conditions', `rule ${quote(rule)} has the same conditions as ${placed(earlier)}`);
    }
    if (dead[index]) return;
    const shadow = shadowOf(rules, trees, index, twin);
    if (shadow !== undefined) at(rule, 'shadowed-rule', shadow);
    const allow = allowBefore(rules, index);
    if (allow !== undefined) at(rule, 'allow-before-block', allow, 'info');
  });
  return findings;
}

function catchAllReason(rule: DeclaredRule): string | undefined {
  const reasons = rule.conditions.children.map((group) => catchAll(group));
  if (rule.conditions.operator === '$or') return reasons.find((reason) => reason !== undefined);
  return reasons.every((reason) => reason !== undefined) ? reasons.join('; ') : undefined;
}

/** The first earlier active rule proved to match every request rule `index` matches. */
function shadowOf(rules: readonly DeclaredRule[], trees: readonly Conditions[], index: number, twin: number): string | undefined {
  const rule = rules[index] as DeclaredRule;
  for (let i = 0; i < index; i++) {
    const earlier = rules[i] as DeclaredRule;
    if (earlier.status !== 'active') continue;
    if (i === twin) return `rule ${quote(rule)} can never decide: ${placed(earlier)} comes first and has the same conditions`;
    const proof = implies(trees[index] as Conditions, trees[i] as Conditions);
    if (proof !== undefined) {
      return `rule ${quote(rule)} can never decide: ${placed(earlier)} comes first and matches every request it matches (${proof.join('; ')})`;
    }
  }
  return undefined;
}

/** An earlier active allow rule that decides some requests this blocking rule matches, with an example. */
function allowBefore(rules: readonly DeclaredRule[], index: number): string | undefined {
  const rule = rules[index] as DeclaredRule;
  if (!rule.actions.some((action) => BLOCKING.includes(action))) return undefined;
  for (let i = 0; i < index; i++) {
    const earlier = rules[i] as DeclaredRule;
    if (earlier.status !== 'active' || !earlier.actions.includes('allow')) continue;
    const example = candidatesForBoth(earlier.conditions, rule.conditions)
      .find((request) => conditionsMatch(earlier.conditions, request) && conditionsMatch(rule.conditions, request));
    if (example !== undefined) {
      return `allow ${placed(earlier)} comes first and lets through requests rule ${quote(rule)} would block, for example one with ${describeRequest(example)}`;
    }
  }
  return undefined;
}

function quote(rule: DeclaredRule): string {
  return JSON.stringify(rule.name);
}

function placed(rule: DeclaredRule): string {
  return `rule ${quote(rule)} (${rule.source.file}:${rule.source.line})`;
}

/** A request is an example only when its match is decided (no pattern out of time). */
function conditionsMatch(conditions: Conditions, request: TestRequest): boolean {
  return conditionsVerdict(conditions, request) === true;
}
