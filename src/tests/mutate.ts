// Runs the tests against each mutant of a rule set (docs/evaluation.md, "Mutation testing").
// A mutant is killed when some test's verdict (pass or fail) differs from the original's. It is
// evaluated in memory and only where it can change something: a mutant of the rule at position
// i cannot change a request an earlier rule decides, so only the requests that reach position i
// are looked at; a mutant that changes one leaf changes a request's decision only when that leaf
// reads the request differently; a paused rule or a weaker action only the requests the rule
// decided; a swap only those the first rule decided that the second also matches.
import { conditionsVerdict } from '../evaluate/evaluate.js';
import { leafVerdict, type EvaluationOptions } from '../evaluate/leaf.js';
import type { Action, NormalRule, SourceLocation } from '../semantics/model.js';
import { NO_RULE_WORD, type RuleTest } from './load.js';
import type { Mutant } from './mutants.js';
import { definedFields } from '../defined.js';
import { ProgramVerdicts } from '../evaluate/program-verdicts.js';
import { compileProgram, type ProgramSet } from '../semantics/program.js';

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
    const outcomes = new OriginalOutcomes(app.rules, app.tests, options.evaluation ?? {});
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
export function verdict(test: RuleTest, rule: string | undefined, actions: readonly Action[]): boolean {
  const expected = test.expect.rule === NO_RULE_WORD ? undefined : test.expect.rule;
  if (rule !== expected) return false;
  const wanted = test.expect.actions;
  return wanted === undefined || (wanted.length === actions.length && wanted.every((action) => actions.includes(action)));
}

/** Each test's decision under the original rules, and the requests that reach each position. */
class OriginalOutcomes {
  private readonly decidedAt: number[];
  private readonly passed: boolean[];
  /** Test numbers by deciding position, latest (or none) first: a position's reaching tests are a prefix. */
  private readonly byReach: number[];
  private readonly decidedBy = new Map<number, number[]>();

  constructor(private readonly rules: readonly NormalRule[], private readonly tests: readonly RuleTest[], private readonly evaluation: EvaluationOptions) {
    // The original rules compiled once (docs/design.md, "One rule engine"): every test asks the same trees.
    const program = compileProgram([rules]);
    const verdicts = new ProgramVerdicts(program, evaluation);
    const set = program.sets[0] as ProgramSet<NormalRule>;
    const decisions = tests.map((test) => {
      verdicts.begin(test.request);
      return verdicts.decision(set);
    });
    this.decidedAt = decisions.map((decision) => (decision.index === -1 ? rules.length : decision.index));
    this.passed = tests.map((test, t) => verdict(test, decisions[t]?.rule?.name, decisions[t]?.actions ?? []));
    this.byReach = tests.map((_, t) => t).sort((a, b) => (this.decidedAt[b] as number) - (this.decidedAt[a] as number) || a - b);
    this.decidedAt.forEach((at, t) => {
      const list = this.decidedBy.get(at) ?? [];
      list.push(t);
      this.decidedBy.set(at, list);
    });
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
      return this.first(this.decidedBy.get(i) ?? [], (t) => (this.matches(second, t) ? this.differs(t, second.name, second.actions) : false));
    }
    const replacement = mutant.replacement as NormalRule;
    const sameConditions = replacement.conditions === original.conditions;
    const candidates = sameConditions || replacement.status === 'paused' ? (this.decidedBy.get(i) ?? []) : this.reaching(i);
    return this.first(candidates, (t) => {
      const wasDecided = this.decidedAt[t] === i;
      if (mutant.leafChange !== undefined) {
        const { before, after } = mutant.leafChange;
        const request = (this.tests[t] as RuleTest).request;
        if (leafVerdict(before, request, this.evaluation) === leafVerdict(after, request, this.evaluation)) return false;
      }
      const nowMatches = replacement.status === 'active' && (sameConditions ? wasDecided : this.matches(replacement, t));
      if (nowMatches) return this.differs(t, replacement.name, replacement.actions);
      if (!wasDecided) return false;
      const next = this.nextMatch(t, i + 1);
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

  private matches(rule: NormalRule, t: number): boolean {
    return conditionsVerdict(rule.conditions, (this.tests[t] as RuleTest).request, this.evaluation) === true;
  }

  private nextMatch(t: number, from: number): NormalRule | undefined {
    for (let index = from; index < this.rules.length; index++) {
      const rule = this.rules[index] as NormalRule;
      if (rule.status === 'active' && this.matches(rule, t)) return rule;
    }
    return undefined;
  }

  private differs(t: number, rule: string | undefined, actions: readonly Action[]): boolean {
    return verdict(this.tests[t] as RuleTest, rule, actions) !== this.passed[t];
  }
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
