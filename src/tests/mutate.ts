// Runs the tests against each mutant of a rule set (docs/evaluation.md, "Mutation testing").
// A mutant is killed when some test's verdict (pass or fail) differs from the original's. It is
// evaluated in memory and only where it can change something: a mutant of the rule at position
// i cannot change a request an earlier rule decides, so only the requests that reach position i
// are looked at; a mutant that changes one leaf changes a request's decision only when that leaf
// reads the request differently; a paused rule or a weaker action only the requests the rule
// decided; a swap only those the first rule decided that the second also matches.
import { fieldOf } from '../evaluate/request.js';
import type { EvaluationOptions } from '../evaluate/leaf.js';
import type { Action, NormalRule, SourceLocation } from '../semantics/model.js';
import { NO_RULE_WORD, type RuleTest } from './load.js';
import type { Mutant } from './mutants.js';
import { definedFields } from '../defined.js';
import { ProgramVerdicts } from '../evaluate/program-verdicts.js';
import { ProgramBuilder, type ProgramSet } from '../semantics/program.js';

type MutantStatus = 'killed' | 'survived' | 'equivalent' | 'not-run';

export interface MutantResult {
  app: string;
  mutant: Mutant;
  /** The original rule the mutant changes. */
  rule: NormalRule;
  status: MutantStatus;
  /** The first test whose verdict the mutant changes (killed). */
  killedBy?: string;
  /** Why the mutant decides every request as the original does (equivalent). */
  equivalence?: string;
  /** Where the mutation is written (filled in by the caller, which can read the rule files). */
  where?: SourceLocation;
}

interface MutationSummary {
  total: number;
  killed: number;
  survived: number;
  equivalent: number;
  notRun: number;
  /** killed / (killed + survived), as a percentage; 100 when nothing was run. */
  score: number;
}

export interface MutationReport {
  results: MutantResult[];
  summary: MutationSummary;
  /** Why some mutants were not run. */
  stoppedBy?: 'max-mutants' | 'time';
  only?: string[];
}

interface AppMutants {
  app: string;
  rules: readonly NormalRule[];
  tests: readonly RuleTest[];
  mutants: readonly Mutant[];
}

interface MutationOptions {
  evaluation?: EvaluationOptions;
  maxMutants?: number;
  /** Milliseconds (from `now`) after which no further mutant is started. */
  deadline?: number;
  now?: () => number;
  /** Called after each mutant with the number done and the number to do. */
  progress?: (done: number, total: number) => void;
  /** An exact proof that a surviving mutant decides every request as the original, or undefined. */
  equivalence?: (rules: readonly NormalRule[], mutant: Mutant) => string | undefined;
  only?: string[];
}

export function runMutants(apps: readonly AppMutants[], options: MutationOptions = {}): MutationReport {
  const now = options.now ?? Date.now;
  const total = apps.reduce((sum, app) => sum + app.mutants.length, 0);
  const results: MutantResult[] = [];
  let stoppedBy: MutationReport['stoppedBy'];
  let run = 0;
  for (const app of apps) {
    const outcomes = new OriginalOutcomes(app.rules, app.tests, app.mutants, options.evaluation ?? {});
    for (const mutant of app.mutants) {
      const rule = app.rules[mutant.index] as NormalRule;
      if (stoppedBy === undefined && options.maxMutants !== undefined && run >= options.maxMutants) stoppedBy = 'max-mutants';
      if (stoppedBy === undefined && options.deadline !== undefined && now() > options.deadline) stoppedBy = 'time';
      if (stoppedBy !== undefined) {
        results.push({ app: app.app, mutant, rule, status: 'not-run' });
        continue;
      }
      run += 1;
      const killedBy = outcomes.firstChangedVerdict(mutant);
      const equivalence = killedBy === undefined ? options.equivalence?.(app.rules, mutant) : undefined;
      const status = killedBy !== undefined ? 'killed' : equivalence !== undefined ? 'equivalent' : 'survived';
      results.push({ app: app.app, mutant, rule, status, ...definedFields({ killedBy, equivalence }) });
      options.progress?.(results.length, total);
    }
  }
  const report: MutationReport = { results, summary: summarise(results) };
  if (stoppedBy !== undefined) report.stoppedBy = stoppedBy;
  if (options.only !== undefined) report.only = options.only;
  return report;
}

/** Whether a test passes with this deciding rule (undefined: none) and actions. */
function verdict(test: RuleTest, rule: string | undefined, actions: readonly Action[]): boolean {
  const expected = test.expect.rule === NO_RULE_WORD ? undefined : test.expect.rule;
  if (rule !== expected) return false;
  const wanted = test.expect.actions;
  return wanted === undefined || (wanted.length === actions.length && wanted.every((action) => actions.includes(action)));
}

/** A mutant's parts in the compiled program: its rule's condition tree and its changed leaf, by id (-1: none). */
interface CompiledMutant {
  tree: number;
  before: number;
  after: number;
}

/**
 * Each test's decision under the original rules, and the requests that reach each position. The
 * original rules and every mutant are compiled into one program (docs/design.md, "One rule
 * engine"): a mutant's tree shares every leaf and group but the changed one with its rule.
 */
class OriginalOutcomes {
  private readonly decidedAt: number[];
  private readonly passed: boolean[];
  /** Test numbers by deciding position, latest (or none) first: a position's reaching tests are a prefix. */
  private readonly byReach: number[];
  private readonly decidedBy = new Map<number, number[]>();
  private readonly set: ProgramSet<NormalRule>;
  private readonly compiled = new Map<Mutant, CompiledMutant>();
  private readonly verdicts: ProgramVerdicts;
  /** The test whose request the verdicts were last begun with. */
  private begun = -1;
  /** Per test, the first active rule after the one that decides it that matches it: a position, -1 for none, -2 not yet known. */
  private readonly nextMatches: Int32Array;

  constructor(private readonly rules: readonly NormalRule[], private readonly tests: readonly RuleTest[], mutants: readonly Mutant[], evaluation: EvaluationOptions) {
    const program = new ProgramBuilder();
    this.set = program.set(rules);
    for (const mutant of mutants) this.compiled.set(mutant, compileMutant(program, rules, mutant));
    this.verdicts = new ProgramVerdicts(program, evaluation);
    const decisions = tests.map((_, t) => {
      this.begin(t);
      return this.verdicts.decision(this.set);
    });
    this.decidedAt = decisions.map((decision) => (decision.index === -1 ? rules.length : decision.index));
    this.passed = tests.map((test, t) => verdict(test, decisions[t]?.rule?.name, decisions[t]?.actions ?? []));
    this.byReach = tests.map((_, t) => t).sort((a, b) => (this.decidedAt[b] as number) - (this.decidedAt[a] as number) || a - b);
    this.decidedAt.forEach((at, t) => {
      const list = this.decidedBy.get(at) ?? [];
      list.push(t);
      this.decidedBy.set(at, list);
    });
    this.nextMatches = new Int32Array(tests.length).fill(-2);
  }

  /** The name of the first test (in file order) whose verdict the mutant changes, if any. */
  firstChangedVerdict(mutant: Mutant): string | undefined {
    const changed = this.changedTests(mutant);
    return changed === undefined ? undefined : this.tests[changed]?.name;
  }

  private changedTests(mutant: Mutant): number | undefined {
    const i = mutant.index;
    const original = this.rules[i] as NormalRule;
    if (mutant.swapWith !== undefined) {
      const second = this.rules[mutant.swapWith] as NormalRule;
      const tree = this.set.treeOf[mutant.swapWith] as number;
      return this.first(this.decidedBy.get(i) ?? [], (t) => (this.matches(tree, t) ? this.differs(t, second.name, second.actions) : false));
    }
    const replacement = mutant.replacement as NormalRule;
    const { tree, before, after } = this.compiled.get(mutant) as CompiledMutant;
    const sameConditions = replacement.conditions === original.conditions;
    const candidates = sameConditions || replacement.status === 'paused' ? (this.decidedBy.get(i) ?? []) : this.reaching(i);
    return this.first(candidates, (t) => {
      const wasDecided = this.decidedAt[t] === i;
      if (mutant.leafChange !== undefined) {
        // Tests repeat values and mutants repeat leaves: the per-value view answers most of these from memory.
        const value = fieldOf((this.tests[t] as RuleTest).request, mutant.leafChange.before);
        if (this.verdicts.value(before, value) === this.verdicts.value(after, value)) return false;
      }
      const nowMatches = replacement.status === 'active' && (sameConditions ? wasDecided : this.matches(tree, t));
      if (nowMatches) return this.differs(t, replacement.name, replacement.actions);
      if (!wasDecided) return false;
      const next = this.rules[this.nextMatch(t)];
      return next === undefined ? this.differs(t, undefined, []) : this.differs(t, next.name, next.actions);
    });
  }

  /** Tests decided at position `i` or later, or by no rule (in an order that is not file order). */
  private reaching(i: number): number[] {
    let end = 0;
    while (end < this.byReach.length && (this.decidedAt[this.byReach[end] as number] as number) >= i) end++;
    return this.byReach.slice(0, end);
  }

  /** The test number (lowest) for which `changes` holds, if any. */
  private first(tests: readonly number[], changes: (t: number) => boolean): number | undefined {
    let found: number | undefined;
    for (const t of tests) if ((found === undefined || t < found) && changes(t)) found = t;
    return found;
  }

  private begin(t: number): void {
    if (this.begun === t) return;
    this.verdicts.begin((this.tests[t] as RuleTest).request);
    this.begun = t;
  }

  private matches(tree: number, t: number): boolean {
    this.begin(t);
    return this.verdicts.tree(tree) === true;
  }

  /** The position of the first active rule after the one deciding test `t` that matches it, or -1. */
  private nextMatch(t: number): number {
    let next = this.nextMatches[t] as number;
    if (next !== -2) return next;
    next = -1;
    for (let position = (this.decidedAt[t] as number) + 1; position < this.rules.length && next === -1; position++) {
      const tree = this.set.treeOf[position] as number;
      if (tree !== -1 && this.matches(tree, t)) next = position;
    }
    this.nextMatches[t] = next;
    return next;
  }

  private differs(t: number, rule: string | undefined, actions: readonly Action[]): boolean {
    return verdict(this.tests[t] as RuleTest, rule, actions) !== this.passed[t];
  }
}

/** The mutant's rule's tree and changed leaf added to the program (a swap adds nothing). */
function compileMutant(program: ProgramBuilder, rules: readonly NormalRule[], mutant: Mutant): CompiledMutant {
  const replacement = mutant.replacement;
  const changed = replacement !== undefined && replacement.conditions !== (rules[mutant.index] as NormalRule).conditions;
  const tree = changed ? program.tree(replacement.conditions) : -1;
  const leaf = mutant.leafChange;
  return { tree, before: leaf === undefined ? -1 : program.leaf(leaf.before), after: leaf === undefined ? -1 : program.leaf(leaf.after) };
}

function summarise(results: readonly MutantResult[]): MutationSummary {
  const count = (status: MutantStatus) => results.filter((result) => result.status === status).length;
  const killed = count('killed');
  const survived = count('survived');
  return {
    total: results.length, killed, survived, equivalent: count('equivalent'), notRun: count('not-run'),
    score: killed + survived === 0 ? 100 : (100 * killed) / (killed + survived),
  };
}
