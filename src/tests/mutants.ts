// The mutants of a rule set (docs/evaluation.md, "Mutation testing"): small, deterministic
// changes a mistaken edit could make, each of which a good test suite notices. Every mutant is
// a rule set the schema accepts (no empty group or tree), and none is the original written
// differently: an operator is changed only where the group has two children or more.
import { isIP } from 'node:net';
import { describeField, describeLeaf } from '../evaluate/describe.js';
import type { Action, Conditions, Group, Leaf, LeafOperator, NormalRule } from '../semantics/model.js';
import { leafValues } from '../semantics/fields.js';
import { definedFields } from '../defined.js';

/** Where in a rule a mutation is written, as a path below the rule (for FILE:LINE:COL). */
type RulePath = (string | number)[];

type MutationKind =
  | 'cidr-widen' | 'cidr-narrow' | 'operator' | 'drop-leaf' | 'drop-group' | 'group-operator'
  | 'swap' | 'pause' | 'weaken-action';

export interface Mutant {
  kind: MutationKind;
  /** The mutated rule's position in the app's rules. */
  index: number;
  /** What changed, in words: `socketIps $in 203.0.113.0/24 → 203.0.113.0/23`. */
  description: string;
  path: RulePath;
  /** The rule at `index` after the change (absent for a swap). */
  replacement?: NormalRule;
  /** A swap: the position of the rule it trades places with (the next active rule). */
  swapWith?: number;
  /** A change to one leaf only (group, leaf, and the leaf before and after). */
  leafChange?: { group: number; leaf: number; before: Leaf; after: Leaf };
}

const FLIPPED: Partial<Record<LeafOperator, LeafOperator>> = {
  $eq: '$ne', $ne: '$eq', $in: '$notIn', $notIn: '$in', $startsWith: '$contains', $contains: '$startsWith',
};

const WEAKER: Partial<Record<Action, Action>> = { hardBlock: 'blockWithChallenge', blockWithChallenge: 'allow' };

/** Every mutant of the active rules at `indexes` (all active rules when absent), in a fixed order. */
export function mutantsOf(rules: readonly NormalRule[], indexes?: readonly number[]): Mutant[] {
  const chosen = indexes ?? rules.map((_, index) => index);
  return chosen.flatMap((index) => ((rules[index] as NormalRule).status === 'active' ? ruleMutants(rules, index) : []));
}

function ruleMutants(rules: readonly NormalRule[], index: number): Mutant[] {
  const rule = rules[index] as NormalRule;
  const out: Mutant[] = [];
  const replace = (kind: MutationKind, description: string, path: RulePath, replacement: NormalRule, leafChange?: Mutant['leafChange']): void => {
    out.push({ kind, index, description, path, replacement, ...definedFields({ leafChange }) });
  };
  rule.actions.forEach((action, a) => {
    const weaker = WEAKER[action];
    if (weaker === undefined) return;
    const actions = [...new Set(rule.actions.map((each) => (each === action ? weaker : each)))];
    replace('weaken-action', `action ${action} → ${weaker}`, ['actions', a], { ...rule, actions });
  });
  replace('pause', 'paused', ['status'], { ...rule, status: 'paused' });
  const next = nextActive(rules, index);
  if (next !== -1) out.push({ kind: 'swap', index, description: `swapped with the next active rule ${JSON.stringify((rules[next] as NormalRule).name)}`, path: [], swapWith: next });
  const root = rule.conditions;
  if (root.children.length > 1) replace('group-operator', `conditions ${root.operator} → ${other(root.operator)}`, ['conditions', 'operator'], withConditions(rule, { ...root, operator: other(root.operator) }));
  root.children.forEach((group, g) => {
    const groupPath = ['conditions', 'children', g];
    if (root.children.length > 1) replace('drop-group', `group ${g + 1} dropped`, groupPath, withConditions(rule, { ...root, children: root.children.filter((_, i) => i !== g) }));
    if (group.children.length > 1) replace('group-operator', `group ${g + 1} ${group.operator} → ${other(group.operator)}`, [...groupPath, 'operator'], withGroup(rule, g, { ...group, operator: other(group.operator) }));
    group.children.forEach((leaf, l) => {
      const leafPath = [...groupPath, 'children', l];
      if (group.children.length > 1) replace('drop-leaf', `${describeLeaf(leaf)} dropped`, leafPath, withGroup(rule, g, { ...group, children: group.children.filter((_, i) => i !== l) }));
      const changed = (after: Leaf) => ({ group: g, leaf: l, before: leaf, after });
      const flipped = FLIPPED[leaf.operator];
      if (flipped !== undefined) {
        const after = { ...leaf, operator: flipped };
        replace('operator', `${describeLeaf(leaf)} → ${flipped}`, [...leafPath, 'operator'], withLeaf(rule, g, l, after), changed(after));
      }
      for (const cidr of cidrMutations(leaf)) {
        replace(cidr.kind, `${describeField(leaf)} ${leaf.operator} ${cidr.before} → ${cidr.after}`, [...leafPath, ...cidr.path], withLeaf(rule, g, l, cidr.leaf), changed(cidr.leaf));
      }
    });
  });
  return out;
}

function nextActive(rules: readonly NormalRule[], index: number): number {
  for (let next = index + 1; next < rules.length; next++) if ((rules[next] as NormalRule).status === 'active') return next;
  return -1;
}

function other(operator: '$and' | '$or'): '$and' | '$or' {
  return operator === '$and' ? '$or' : '$and';
}

function withConditions(rule: NormalRule, conditions: Conditions): NormalRule {
  return { ...rule, conditions };
}

function withGroup(rule: NormalRule, g: number, group: Group): NormalRule {
  return withConditions(rule, { ...rule.conditions, children: rule.conditions.children.map((each, i) => (i === g ? group : each)) });
}

function withLeaf(rule: NormalRule, g: number, l: number, leaf: Leaf): NormalRule {
  const group = rule.conditions.children[g] as Group;
  return withGroup(rule, g, { ...group, children: group.children.map((each, i) => (i === l ? leaf : each)) });
}

interface CidrMutation {
  kind: 'cidr-widen' | 'cidr-narrow';
  before: string;
  after: string;
  path: RulePath;
  leaf: Leaf;
}

/** Each range of an address leaf one bit wider and one bit narrower (the address kept as written). */
function cidrMutations(leaf: Leaf): CidrMutation[] {
  if (leaf.conditionType !== 'socketIps' || !['$eq', '$ne', '$in', '$notIn'].includes(leaf.operator)) return [];
  const list = leafValues(leaf);
  return list.flatMap((range, k) => {
    const [address = '', written] = range.split('/');
    const version = isIP(address);
    if (version === 0) return [];
    const max = version === 4 ? 32 : 128;
    const prefix = written === undefined ? max : Number(written);
    const path = Array.isArray(leaf.value) ? ['value', k] : ['value'];
    const mutation = (kind: CidrMutation['kind'], bits: number): CidrMutation => {
      const after = `${address}/${bits}`;
      const value = Array.isArray(leaf.value) ? list.map((each, i) => (i === k ? after : each)) : after;
      return { kind, before: range, after, path, leaf: { ...leaf, value } };
    };
    return [
      ...(prefix > 0 ? [mutation('cidr-widen', prefix - 1)] : []),
      ...(prefix < max ? [mutation('cidr-narrow', prefix + 1)] : []),
    ];
  });
}
