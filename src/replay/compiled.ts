// Rule sets compiled once for deciding many requests (docs/replay.md, "Throughput"). Each set
// indexes its active rules by guards (rule-index.ts), so a request is tried, in priority order,
// only against the rules its values select plus the rules without a guard. Candidates are
// decided by their condition tree's verdict, which the sets compiled together share
// (evaluate/program-verdicts.ts): a leaf or tree that several rules or both "before" and "after" hold is
// evaluated once per request. The answer is always the reference evaluator's, only found sooner.
import type { Decision } from '../evaluate/evaluate.js';
import type { TestRequest } from '../evaluate/request.js';
import type { Verdict } from '../evaluate/leaf.js';
import type { NormalRule } from '../semantics/model.js';
import { compileProgram, type ProgramSet } from '../semantics/program.js';
import { indexRules, listsOf } from './rule-index.js';
import { ProgramVerdicts } from '../evaluate/program-verdicts.js';
import { undecidedPatterns } from '../evaluate/program-reasons.js';

interface CompiledRules<R extends NormalRule> {
  decide(request: TestRequest): Decision<R>;
  undecidedPatterns: UndecidedExplainer;
}

export interface CompiledRuleSets<R extends NormalRule> {
  /** Each set's decision for the request, in the order the sets were given (the list is reused by the next call). */
  decide(request: TestRequest): readonly Decision<R>[];
  /** The patterns that left a decision undecided for the request, as its rule writes them (an undecided rule of another set: none). */
  undecidedPatterns: UndecidedExplainer;
}

/** The patterns of an undecided decision's rule that ran out of time on the request (replay's rule pairs name them). */
export type UndecidedExplainer = (undecided: NonNullable<Decision['undecided']>, request: TestRequest) => string[];

/** One rule set (rules in priority order). */
export function compileRules<R extends NormalRule>(rules: readonly R[]): CompiledRules<R> {
  const sets = compileRuleSets([rules]);
  return { decide: (request) => sets.decide(request)[0] as Decision<R>, undecidedPatterns: sets.undecidedPatterns };
}

/** Several rule sets that decide the same requests (live and declared, as replay compares them). */
export function compileRuleSets<R extends NormalRule>(sets: readonly (readonly R[])[]): CompiledRuleSets<R> {
  const program = compileProgram(sets);
  const verdicts = new ProgramVerdicts(program);
  const compiled = program.sets.map((set) => compileSet(set, verdicts));
  const decisions: Decision<R>[] = [];
  return {
    decide(request) {
      verdicts.begin(request);
      for (let set = 0; set < compiled.length; set++) decisions[set] = (compiled[set] as CompiledSet<R>).decide();
      return decisions;
    },
    undecidedPatterns({ rule, index }, request) {
      const set = program.sets.find((one) => one.rules[index] === rule);
      if (set === undefined) return [];
      // Asked right after the request was decided, the verdicts are still the request's.
      if (verdicts.current() !== request) verdicts.begin(request);
      return undecidedPatterns(verdicts, program, set, index).map((found) => found.pattern);
    },
  };
}

interface CompiledSet<R extends NormalRule> {
  /** The decision for the request the shared verdicts were begun with. */
  decide(): Decision<R>;
}

function compileSet<R extends NormalRule>({ rules, treeOf, reachable }: ProgramSet<R>, verdicts: ProgramVerdicts): CompiledSet<R> {
  const index = indexRules(rules, reachable, (leaf) => verdicts.budgetedLeaf(leaf));
  const noMatch: Decision<R> = Object.freeze({ rule: undefined, index: -1, actions: [] });
  // One frozen decision per rule, made once: deciding a request allocates no result.
  const matched = rules.map((rule, position): Decision<R> => Object.freeze({ rule, index: position, actions: Object.freeze([...rule.actions]) as Decision<R>['actions'] }));
  // Scratch lists reused from request to request (decide is synchronous): no allocation here.
  const found: (readonly number[])[] = [];
  let heads = new Int32Array(16);
  const tried = (position: number): Decision<R> | undefined => {
    const verdict: Verdict = verdicts.tree(treeOf[position] as number);
    if (verdict === true) return matched[position];
    // As the reference evaluator: a match undecided within its time budget decides nothing after it.
    return verdict === 'undecided' ? { rule: undefined, index: -1, actions: [], undecided: { rule: rules[position] as R, index: position } } : undefined;
  };
  return {
    decide() {
      // The lists the request's values select (each ascending), merged lazily in priority
      // order with the rules tried for every request: the first rule that matches decides, so
      // a broad early rule ends the search before the rest of the lists is read.
      const lists = listsOf(index, verdicts.current(), found);
      if (heads.length < lists.length) heads = new Int32Array(lists.length * 2);
      heads.fill(0, 0, lists.length);
      for (;;) {
        let position = Infinity;
        for (let list = 0; list < lists.length; list++) {
          const head = (lists[list] as readonly number[])[heads[list] as number];
          if (head !== undefined && head < position) position = head;
        }
        if (position === Infinity) return noMatch;
        for (let list = 0; list < lists.length; list++) {
          if ((lists[list] as readonly number[])[heads[list] as number] === position) heads[list] = (heads[list] as number) + 1;
        }
        const decision = tried(position);
        if (decision !== undefined) return decision;
      }
    },
  };
}
