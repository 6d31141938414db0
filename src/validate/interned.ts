// The analysis works on few distinct things used many times: the 5,000 generated rules of
// bench/validate.bench.js are 3,134 distinct condition trees built from 34 distinct leaves.
// Interning makes each distinct leaf and each distinct group one object, so whatever is worked
// out from a leaf or a group (its implications, contradictions, candidate requests, verdicts,
// words) can be remembered by object and worked out once.
import type { Conditions, DeclaredRule, Group, Leaf } from '../semantics/model.js';

export interface InternedRules {
  /**
   * For each rule, a number it shares with exactly the rules whose conditions are written
   * identically (same order too), numbered in order of first use.
   */
  classes: number[];
  /** For each class, its conditions, made of shared leaf and group objects. */
  conditions: Conditions[];
}

export function internRules(rules: readonly DeclaredRule[]): InternedRules {
  const numbers = new Map<string, number>();
  const conditions: Conditions[] = [];
  const intern = new Interner();
  const classes = rules.map((rule) => {
    const key = JSON.stringify(rule.conditions);
    let number = numbers.get(key);
    if (number === undefined) {
      numbers.set(key, (number = numbers.size));
      conditions.push(intern.conditions(rule.conditions));
    }
    return number;
  });
  return { classes, conditions };
}

/** One object per distinct leaf and per distinct group (same operator, same leaves in the same order). */
class Interner {
  private readonly leaves = new Map<string, { leaf: Leaf; id: number }>();
  private readonly groups = new Map<string, Group>();

  conditions(conditions: Conditions): Conditions {
    return { operator: conditions.operator, children: conditions.children.map((group) => this.group(group)) };
  }

  private group(group: Group): Group {
    const leaves = group.children.map((leaf) => this.leaf(leaf));
    const key = `${group.operator} ${leaves.map(({ id }) => id).join(' ')}`;
    let shared = this.groups.get(key);
    if (shared === undefined) this.groups.set(key, (shared = { operator: group.operator, children: leaves.map(({ leaf }) => leaf) }));
    return shared;
  }

  private leaf(leaf: Leaf): { leaf: Leaf; id: number } {
    // Exactly as written (an absent fieldOption or value is null in the JSON of a list).
    const key = JSON.stringify([leaf.conditionType, leaf.fieldOption, leaf.operator, leaf.value]);
    let shared = this.leaves.get(key);
    if (shared === undefined) this.leaves.set(key, (shared = { leaf, id: this.leaves.size }));
    return shared;
  }
}

/** `derive` remembered per object: a leaf or a group of the interned conditions, a rule, an example request. */
export function rememberedBy<K extends object, T>(derive: (key: K) => T): (key: K) => T {
  const known = new Map<K, T>();
  return (key) => {
    let value = known.get(key);
    if (value === undefined && !known.has(key)) known.set(key, (value = derive(key)));
    return value as T;
  };
}

/** `relate` remembered per pair of objects. */
export function rememberedPairs<K extends object, T>(relate: (a: K, b: K) => T): (a: K, b: K) => T {
  const known = new Map<K, (b: K) => T>();
  return (a, b) => {
    let withA = known.get(a);
    if (withA === undefined) known.set(a, (withA = rememberedBy((other: K) => relate(a, other))));
    return withA(b);
  };
}
