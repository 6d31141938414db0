// Rule-set analysis for `validate` (docs/evaluation.md, "Rule-set analysis"): findings that
// are proved under the stated evaluation semantics, each from a named check with a stable id
// a rule file can silence. Pure: declared rules in, located findings out.
import type { Conditions, DeclaredRule, Group, Leaf } from '../semantics/model.js';
import type { ProgramBuilder } from '../semantics/program.js';
import { catchAll, contradiction, unsatisfiable } from './conditions.js';
import { emptyGroups } from './empty-groups.js';
import { internRules, rememberedBy } from './interned.js';
import { firstAllowOverlaps } from './overlaps.js';
import { Prover, type Node } from './prover.js';
import { firstShadows } from './shadows.js';
import { describeRequest } from './witness.js';
import { plural } from '../plural.js';
import type { Problem } from '../errors.js';

export const CHECK_IDS = ['shadowed-rule', 'duplicate-conditions', 'unsatisfiable-group', 'catch-all', 'empty-group', 'allow-before-block', 'redos-pattern'] as const;
export type CheckId = (typeof CHECK_IDS)[number];

export interface Finding extends Problem {
  check: CheckId;
  /** allow-before-block is information: the overlap may well be intended. */
  severity: 'warning' | 'info';
}

/** `rules` of one app in declared (priority) order. */
export function analyseRules(rules: readonly DeclaredRule[]): Finding[] {
  const findings: Finding[] = [];
  const at = (rule: DeclaredRule, check: CheckId, message: string, severity: Finding['severity'] = 'warning') =>
    findings.push({ check, severity, file: rule.source.file, line: rule.source.line, col: rule.source.col, message });
  // Rules whose conditions are written identically share everything worked out from them, and
  // so do leaves and groups written identically (interned.ts).
  const interned = internRules(rules);
  const { classes, conditions } = interned;
  // Every `$re` verdict the leaf relations need is the compiled program's, remembered once per leaf and value.
  const patternVerdict = (leaf: Leaf, value: string) => interned.verdicts.verdict(leaf, value);
  const contradictionOf = rememberedBy((group: Group) => contradiction(group, patternVerdict));
  const catchAllOf = rememberedBy((group: Group) => catchAll(group, patternVerdict));
  const prover = new Prover(catchAllOf, patternVerdict);
  const trees = conditions.map((tree) => prover.tree(tree));
  const dead = conditions.map((tree) => unsatisfiable(tree, contradictionOf));
  const always = conditions.map((tree) => catchAllReason(tree, catchAllOf));
  const twins = firstWithSameConditions(classes, conditions.map(canonicalKeys(interned.program)));
  const classOf = (index: number) => classes[index] as number;
  // Only active, satisfiable rules are checked for shadows and allow overlaps.
  const checked = (index: number) => rules[index]?.status === 'active' && dead[classOf(index)] === false;
  const shadows = firstShadows(rules, checked, twins, interned, prover, trees);
  const proofs = new Map<string, string[] | undefined>();
  const proofOf = (index: number, earlier: number) => {
    const key = `${classOf(index)} ${classOf(earlier)}`;
    if (!proofs.has(key)) proofs.set(key, prover.proof(trees[classOf(index)] as Node, trees[classOf(earlier)] as Node));
    return proofs.get(key);
  };
  const overlaps = firstAllowOverlaps(rules, checked, interned);
  // Rules written alike share their example request; a few earlier rules are named in many findings.
  const describedRequest = rememberedBy(describeRequest);
  const placedOf = rememberedBy(placed);

  // Per class: each group that can match no request (its number from 1), and why.
  const deadGroups = conditions.map((tree) => tree.children.flatMap((group, g) => {
    const why = contradictionOf(group);
    return why === undefined ? [] : [{ group: g + 1, why }];
  }));

  rules.forEach((rule, index) => {
    const number = classOf(index);
    for (const message of emptyGroups(rule)) at(rule, 'empty-group', message);
    for (const { group, why } of deadGroups[number] as { group: number; why: string }[]) {
      at(rule, 'unsatisfiable-group', `group ${group} of rule ${quote(rule)} can match no request: ${why}`);
    }
    if (rule.status !== 'active') return;
    const reason = always[number];
    const later = rules.length - index - 1;
    if (reason !== undefined && later > 0) {
      at(rule, 'catch-all', `rule ${quote(rule)} matches every request (${reason}), so none of the ${plural(later, 'rule')} after it can decide`);
    }
    const twin = twins[index] as number;
    if (twin >= 0) at(rule, 'duplicate-conditions', `rule ${quote(rule)} has the same conditions as ${placedOf(rules[twin] as DeclaredRule)}`);
    if (dead[number]) return;
    const shadow = shadows[index] as number;
    if (shadow >= 0) {
      const earlier = rules[shadow] as DeclaredRule;
      const proof = shadow === twin ? undefined : proofOf(index, shadow);
      at(rule, 'shadowed-rule', proof === undefined
        ? `rule ${quote(rule)} can never decide: ${placedOf(earlier)} comes first and has the same conditions`
        : `rule ${quote(rule)} can never decide: ${placedOf(earlier)} comes first and matches every request it matches (${proof.join('; ')})`);
    }
    const overlap = overlaps.get(index);
    if (overlap !== undefined) {
      const earlier = rules[overlap.earlier] as DeclaredRule;
      at(rule, 'allow-before-block', `allow ${placedOf(earlier)} comes first and lets through requests rule ${quote(rule)} would block, for example one with ${describedRequest(overlap.example)}`, 'info');
    }
  });
  return findings;
}

/**
 * A key for interned conditions, equal exactly when their canonical forms are
 * (semantics/canonical.ts: the root's operator, its groups as a set, each group's operator and its
 * leaves as a set, each leaf in canonical form). A leaf is its id in the compiled rule set,
 * which numbers leaves by their canonical key; a group is its operator and its sorted distinct leaf ids.
 */
function canonicalKeys(program: ProgramBuilder): (conditions: Conditions) => string {
  const groupKey = rememberedBy((group: Group) => `${group.operator} ${[...new Set(group.children.map((leaf) => program.leaf(leaf)))].sort((a, b) => a - b).join(' ')}`);
  return (conditions) => `${conditions.operator}|${[...new Set(conditions.children.map(groupKey))].sort().join('|')}`;
}

/** For each rule, the first earlier rule with the same canonical conditions (`canonical`: their key, per class), or -1. */
function firstWithSameConditions(classes: readonly number[], canonical: readonly string[]): number[] {
  const first = new Map<string, number>();
  return classes.map((number, index) => {
    const key = canonical[number] as string;
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, index);
    return earlier ?? -1;
  });
}

function catchAllReason(conditions: Conditions, catchAllOf: (group: Group) => string | undefined): string | undefined {
  const reasons = conditions.children.map(catchAllOf);
  if (conditions.operator === '$or') return reasons.find((reason) => reason !== undefined);
  return reasons.every((reason) => reason !== undefined) ? reasons.join('; ') : undefined;
}

function quote(rule: DeclaredRule): string {
  return JSON.stringify(rule.name);
}

function placed(rule: DeclaredRule): string {
  return `rule ${quote(rule)} (${rule.source.file}:${rule.source.line})`;
}
