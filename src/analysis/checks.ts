// Rule-set analysis for `validate` (docs/evaluation.md, "Rule-set analysis"): findings that
// are proved under the stated evaluation semantics, each from a named check with a stable id
// a rule file can silence. Pure: declared rules in, located findings out.
import type { DeclaredRule } from '../rules/model.js';
import { canonicalConditions } from '../plan/canonical.js';
import { catchAll, contradiction, implies, treeOf, unsatisfiable } from './conditions.js';
import { firstAllowOverlaps } from './overlaps.js';
import { firstShadows } from './shadows.js';
import { describeRequest } from './witness.js';

export const CHECK_IDS = ['shadowed-rule', 'duplicate-conditions', 'unsatisfiable-group', 'catch-all', 'allow-before-block'] as const;
export type CheckId = (typeof CHECK_IDS)[number];

export interface Finding {
  check: CheckId;
  /** allow-before-block is information: the overlap may well be intended. */
  severity: 'warning' | 'info';
  file: string;
  line: number;
  col: number;
  message: string;
}

/** `rules` of one app in declared (priority) order. */
export function analyseRules(rules: readonly DeclaredRule[]): Finding[] {
  const findings: Finding[] = [];
  const at = (rule: DeclaredRule, check: CheckId, message: string, severity: Finding['severity'] = 'warning') =>
    findings.push({ check, severity, ...rule.source, message });
  // Rules whose conditions are written identically share everything worked out from them.
  const classes = writtenAlike(rules);
  const trees = perClass(rules, classes, (rule) => treeOf(rule.conditions));
  const dead = perClass(rules, classes, (rule) => unsatisfiable(rule.conditions));
  const twins = firstWithSameConditions(perClass(rules, classes, (rule) => JSON.stringify(canonicalConditions(rule.conditions))));
  // Only active, satisfiable rules are checked for shadows and allow overlaps.
  const checked = (index: number) => rules[index]?.status === 'active' && dead[index] === false;
  const shadows = firstShadows(rules, checked, twins, classes);
  const proofs = new Map<string, string[] | undefined>();
  const proofOf = (index: number, earlier: number) => {
    const key = `${classes[index] as number} ${classes[earlier] as number}`;
    if (!proofs.has(key)) proofs.set(key, implies(trees[index] as Tree, trees[earlier] as Tree));
    return proofs.get(key);
  };
  const overlaps = firstAllowOverlaps(rules, checked, classes);

  rules.forEach((rule, index) => {
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
    const twin = twins[index] as number;
    if (twin >= 0) at(rule, 'duplicate-conditions', `rule ${quote(rule)} has the same conditions as ${placed(rules[twin] as DeclaredRule)}`);
    if (dead[index]) return;
    const shadow = shadows[index] as number;
    if (shadow >= 0) {
      const earlier = rules[shadow] as DeclaredRule;
      const proof = shadow === twin ? undefined : proofOf(index, shadow);
      at(rule, 'shadowed-rule', proof === undefined
        ? `rule ${quote(rule)} can never decide: ${placed(earlier)} comes first and has the same conditions`
        : `rule ${quote(rule)} can never decide: ${placed(earlier)} comes first and matches every request it matches (${proof.join('; ')})`);
    }
    const overlap = overlaps.get(index);
    if (overlap !== undefined) {
      const earlier = rules[overlap.earlier] as DeclaredRule;
      at(rule, 'allow-before-block', `allow ${placed(earlier)} comes first and lets through requests rule ${quote(rule)} would block, for example one with ${describeRequest(overlap.example)}`, 'info');
    }
  });
  return findings;
}

type Tree = ReturnType<typeof treeOf>;

/** `derive` of each rule, worked out once per class of `writtenAlike`. */
function perClass<T>(rules: readonly DeclaredRule[], classes: readonly number[], derive: (rule: DeclaredRule) => T): T[] {
  const derived: T[] = [];
  return rules.map((rule, index) => {
    const number = classes[index] as number;
    if (number === derived.length) derived.push(derive(rule));
    return derived[number] as T;
  });
}

/** For each rule, a number it shares with exactly the rules whose conditions are written identically (same order too); numbered in order of first use. */
function writtenAlike(rules: readonly DeclaredRule[]): number[] {
  const numbers = new Map<string, number>();
  return rules.map((rule) => {
    const key = JSON.stringify(rule.conditions);
    let number = numbers.get(key);
    if (number === undefined) numbers.set(key, (number = numbers.size));
    return number;
  });
}

/** For each rule (by the JSON of its canonical conditions), the first earlier rule with the same, or -1. */
function firstWithSameConditions(canonical: readonly string[]): number[] {
  const first = new Map<string, number>();
  return canonical.map((key, index) => {
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, index);
    return earlier ?? -1;
  });
}

function catchAllReason(rule: DeclaredRule): string | undefined {
  const reasons = rule.conditions.children.map(catchAll);
  if (rule.conditions.operator === '$or') return reasons.find((reason) => reason !== undefined);
  return reasons.every((reason) => reason !== undefined) ? reasons.join('; ') : undefined;
}

function quote(rule: DeclaredRule): string {
  return JSON.stringify(rule.name);
}

function placed(rule: DeclaredRule): string {
  return `rule ${quote(rule)} (${rule.source.file}:${rule.source.line})`;
}
