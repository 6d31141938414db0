// The normal form of a rule, made once at each boundary (docs/design.md, "One rule
// semantics"): from a rule file (`normaliseRule`), and from whatever the service, a live
// snapshot or a plan file says a live rule is (`normaliseLiveRule`). In the normal form an
// omitted description is "", an omitted status is active, a list operator's value is a list,
// a scalar operator's one-element list is its string, presence operators carry no value, and
// every field botrules does not know is kept as it was (unknown.ts). Code past a boundary
// never fills in a default again, and the compiler holds it to that: the normal form is the
// branded type NormalRule (model.ts), which only `inNormalForm` below makes.
import { isListOperator, isPresenceOperator, type GroupOperator, type Leaf, type LeafOperator, type LiveRule, type NormalRule, type Rule } from './model.js';
import { withUnknownFields } from './unknown.js';
import type { WrittenLeaf, WrittenRule } from './written.js';
import { definedFields } from '../defined.js';

/** Written rule → normal form. Input has passed the schema and the semantic checks. */
export function normaliseRule(written: WrittenRule): NormalRule {
  const rule: Rule = {
    name: written.name,
    ...definedFields({ ruleId: written.ruleId }),
    description: written.description ?? '',
    // A shadow rule is applied paused; replay decides it as if active (docs/replay.md, "Shadow rules").
    status: written.mode === 'shadow' ? 'paused' : (written.status ?? 'active'),
    actions: [...written.actions],
    conditions: withUnknownFields(
      {
        operator: written.conditions.operator,
        children: written.conditions.children.map((group) =>
          withUnknownFields({ operator: group.operator, children: group.children.map(normaliseLeaf) }, group, 'tree'),
        ),
      },
      written.conditions,
      'tree',
    ),
  };
  return inNormalForm(withUnknownFields(rule, written, 'rule'));
}

export function normaliseLeaf(written: WrittenLeaf): Leaf {
  const leaf: Leaf = { conditionType: written.conditionType, operator: written.operator };
  const value = normalValue(written.operator, written.value);
  if (value !== undefined) leaf.value = value;
  if (written.fieldOption !== undefined) leaf.fieldOption = written.fieldOption;
  return withUnknownFields(leaf, written, 'leaf');
}

/**
 * A value in the shape its operator implies: a list for list operators, a string for the
 * other value operators, nothing for presence operators (a value kept there tests nothing,
 * and keeping it would show a change no update can remove). A list of several values under
 * a scalar operator is kept as it is, so a plan shows it.
 */
function normalValue(operator: LeafOperator, value: string | readonly string[] | undefined): string | string[] | undefined {
  if (value === undefined || isPresenceOperator(operator)) return undefined;
  if (isListOperator(operator)) return typeof value === 'string' ? [value] : [...value];
  if (typeof value !== 'string' && value.length === 1) return value[0];
  return typeof value === 'string' ? value : [...value];
}

/**
 * api.md makes `operator` optional at both tree levels and gives no default. A group
 * without one is read as "$and" (all children must match), the reading that matches the
 * fewest requests; botrules always sends an explicit operator, so a rule it wrote never
 * depends on this choice.
 */
export const DEFAULT_GROUP_OPERATOR: GroupOperator = '$and';

/** A live rule as the service, a snapshot or a plan file may hold it: every tree field optional. */
interface LooseLeaf {
  operator?: LeafOperator;
  conditionType?: Leaf['conditionType'];
  value?: string | string[];
  fieldOption?: string;
}

interface LooseTree<Child> {
  operator?: GroupOperator;
  children?: Child[];
}

export interface LooseRule {
  name: string;
  priority?: number;
  description?: string;
  status: Rule['status'];
  actions: Rule['actions'];
  conditions: LooseTree<LooseTree<LooseLeaf>>;
}

/** A rule whose shape a schema accepted but botrules cannot represent. */
export class UnusableRule extends Error {
  constructor(readonly path: string, readonly problem: string) {
    super(`${path} ${problem}`);
  }
}

/**
 * A live rule in normal form. `path` names the rule in messages ("content[3]");
 * `fallbackPriority` stands in for a missing `priority` (the index in a list answer).
 * Throws UnusableRule for a leaf without operator or conditionType (nothing to compare).
 */
export function normaliseLiveRule(rule: LooseRule, path: string, ruleId: string, fallbackPriority: number): LiveRule {
  const live = {
    name: rule.name,
    ruleId,
    description: rule.description ?? '',
    status: rule.status,
    actions: [...rule.actions],
    conditions: liveTree(rule.conditions, `${path}.conditions`, (group, groupPath) => liveTree(group, groupPath, liveLeaf)),
    priority: rule.priority ?? fallbackPriority,
  };
  return inNormalForm(withUnknownFields(live, rule, 'rule'));
}

/**
 * The one place a rule is declared to be in normal form: the brand of NormalRule exists only
 * for the compiler, so this is a cast, and only the normalisers above call it, with a rule they
 * have just built field by field. Lint refuses a cast to NormalRule, DeclaredRule or LiveRule
 * anywhere else (docs/design.md, "One rule semantics").
 */
function inNormalForm<R extends Rule>(rule: R): R & NormalRule {
  return rule as R & NormalRule;
}

/** A live tree (the conditions, or one of their groups) with its children normalised by `normalChild`. */
function liveTree<Child, Normal>(tree: LooseTree<Child>, path: string, normalChild: (child: Child, path: string) => Normal): { operator: GroupOperator; children: Normal[] } {
  const normal = {
    operator: tree.operator ?? DEFAULT_GROUP_OPERATOR,
    children: (tree.children ?? []).map((child, i) => normalChild(child, `${path}.children[${i}]`)),
  };
  return withUnknownFields(normal, tree, 'tree');
}

function liveLeaf(leaf: LooseLeaf, path: string): Leaf {
  if (leaf.operator === undefined) throw new UnusableRule(path, 'has no operator');
  if (leaf.conditionType === undefined) throw new UnusableRule(path, 'has no conditionType');
  // Keys in the order the service lists them, so a snapshot reads like the answer it came from.
  // One literal per set of keys: a key added to a literal afterwards is held in an array of its
  // own beside the object, 40 bytes more per leaf of every live rule, alive through the plan.
  const { conditionType, operator, fieldOption } = leaf;
  const value = normalValue(operator, leaf.value);
  const normal: Leaf = fieldOption === undefined
    ? (value === undefined ? { conditionType, operator } : { conditionType, operator, value })
    : (value === undefined ? { conditionType, operator, fieldOption } : { conditionType, operator, fieldOption, value });
  return withUnknownFields(normal, leaf, 'leaf');
}
