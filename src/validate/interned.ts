// The analysis works on few distinct things used many times: the 5,000 generated rules of
// bench/validate.bench.js are 3,134 distinct condition trees built from 34 distinct leaves.
// The compiled representation (semantics/program.ts) makes each distinct leaf and each distinct
// group one object, so whatever is worked out from a leaf or a group (its implications,
// contradictions, candidate requests, verdicts, words) can be remembered by object and worked out once.
import type { Conditions, DeclaredRule } from '../semantics/model.js';
import { ProgramBuilder } from '../semantics/program.js';
import { Verdicts } from './verdicts.js';

export interface InternedRules {
  /**
   * For each rule, a number it shares with exactly the rules whose conditions are the same
   * leaves in the same groups in the same order, numbered in order of first use.
   */
  classes: number[];
  /** For each class, its conditions, made of shared leaf and group objects. */
  conditions: Conditions[];
  /** The compiled rule set they come from (semantics/program.ts): its leaf ids number the leaves by meaning. */
  program: ProgramBuilder;
  /** Its per-value verdicts (verdicts.ts), kept for the analysis run. */
  verdicts: Verdicts;
}

/** The rules' condition trees as the compiled representation interns them (semantics/program.ts). */
export function internRules(rules: readonly DeclaredRule[]): InternedRules {
  const program = new ProgramBuilder();
  const classes = rules.map((rule) => program.tree(rule.conditions));
  return { classes, conditions: program.trees.map((tree) => tree.conditions), program, verdicts: new Verdicts(program) };
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
