// Rule-set analysis for `validate` (docs/evaluation.md, "Rule-set analysis"): findings that
// are proved under the stated evaluation semantics, each from a named check with a stable id
// a rule file can silence. Pure: declared rules in, located findings out.
import { describeLeaf } from '../evaluate/describe.js';
import type { Conditions, DeclaredRule, Group } from '../rules/model.js';
import { canonicalConditions } from '../plan/canonical.js';
import { catchAll, contradiction, groupNode, implies, treeOf, unsatisfiable, type ConditionTree, type LeafFacts } from './conditions.js';
import { internRules, rememberedBy, rememberedPairs } from './interned.js';
import { leafImplies } from './leaves.js';
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
    findings.push({ check, severity, file: rule.source.file, line: rule.source.line, col: rule.source.col, message });
  // Rules whose conditions are written identically share everything worked out from them, and
  // so do leaves and groups written identically (interned.ts).
  const { classes, conditions } = internRules(rules);
  const contradictionOf = rememberedBy(contradiction);
  const catchAllOf = rememberedBy(catchAll);
  const leaves: LeafFacts = { implies: rememberedPairs(leafImplies), describe: rememberedBy(describeLeaf), catchAll: catchAllOf };
  const nodeOfGroup = rememberedBy(groupNode);
  const trees = conditions.map((tree) => treeOf(tree, nodeOfGroup));
  const dead = conditions.map((tree) => unsatisfiable(tree, contradictionOf));
  const always = conditions.map((tree) => catchAllReason(tree, catchAllOf));
  const canonicalOfGroup = rememberedBy((group: Group) => JSON.stringify(canonicalConditions({ operator: '$and', children: [group] }).children[0]));
  const twins = firstWithSameConditions(classes, conditions.map((tree) => canonicalKey(tree, canonicalOfGroup)));
  const classOf = (index: number) => classes[index] as number;
  // Only active, satisfiable rules are checked for shadows and allow overlaps.
  const checked = (index: number) => rules[index]?.status === 'active' && dead[classOf(index)] === false;
  const shadows = firstShadows(rules, checked, twins, { classes, conditions }, catchAllOf);
  const proofs = new Map<string, string[] | undefined>();
  const proofOf = (index: number, earlier: number) => {
    const key = `${classOf(index)} ${classOf(earlier)}`;
    if (!proofs.has(key)) proofs.set(key, implies(trees[classOf(index)] as Tree, trees[classOf(earlier)] as Tree, leaves));
    return proofs.get(key);
  };
  const overlaps = firstAllowOverlaps(rules, checked, { classes, conditions });
  // Rules written alike share their example request; a few earlier rules are named in many findings.
  const describedRequest = rememberedBy(describeRequest);
  const placedOf = rememberedBy(placed);

  rules.forEach((rule, index) => {
    const number = classOf(index);
    (conditions[number] as Conditions).children.forEach((group, g) => {
      const why = contradictionOf(group);
      if (why !== undefined) at(rule, 'unsatisfiable-group', `group ${g + 1} of rule ${quote(rule)} can match no request: ${why}`);
    });
    if (rule.status !== 'active') return;
    const reason = always[number];
    const later = rules.length - index - 1;
    if (reason !== undefined && later > 0) {
      at(rule, 'catch-all', `rule ${quote(rule)} matches every request (${reason}), so none of the ${later} rule${later === 1 ? '' : 's'} after it can decide`);
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

type Tree = ConditionTree;

/**
 * Equal for conditions with equal canonical forms (plan/canonical.ts: the root's operator, and
 * its groups as a set of groups each with its leaves as a set), made from each group's
 * canonical JSON (which holds no line break).
 */
function canonicalKey(conditions: Conditions, canonicalOfGroup: (group: Group) => string): string {
  const groups = [...new Set(conditions.children.map(canonicalOfGroup))].sort();
  return `${conditions.operator}\n${groups.join('\n')}`;
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
