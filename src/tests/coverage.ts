// Decision coverage of ordered first-match rules (docs/evaluation.md, "Coverage"): which rules
// decided a test request, which leaves and groups were seen both true and false by the
// requests that reached their rule, and which outcomes of the rule set the tests exercised.
// A request reaches a rule when no earlier active rule matched it; every leaf and group of a
// reached rule is evaluated (no short cut), so "seen false" does not depend on leaf order.
// Pure: the caller passes each app's rules in priority order and its tests.
import { describeLeaf } from '../evaluate/describe.js';
import type { EvaluationOptions, Verdict } from '../evaluate/leaf.js';
import { ProgramVerdicts } from '../evaluate/program-verdicts.js';
import { compileProgram, type ProgramSet, type ProgramTree } from '../semantics/program.js';
import type { Action, NormalRule, SourceLocation } from '../semantics/model.js';
import type { RuleTest } from './load.js';

/** The outcomes of a rule set, by the actions of the deciding rule; none: no rule decided. */
const OUTCOMES = ['allow', 'challenge', 'block', 'none'] as const;
type CoveredOutcome = (typeof OUTCOMES)[number];

const OUTCOME_OF: Readonly<Record<Action, CoveredOutcome>> = { allow: 'allow', blockWithChallenge: 'challenge', hardBlock: 'block' };

interface CoveredRule extends NormalRule {
  source?: SourceLocation;
}

/** Seen true and seen false: counts of the reaching requests. */
interface Seen {
  true: number;
  false: number;
}

interface GroupCoverage extends Seen {
  group: number;
  leaves: Seen[];
}

interface RuleCoverage {
  app: string;
  rule: CoveredRule;
  /** Position in the app's rules (priority order). */
  index: number;
  paused: boolean;
  /** Test requests this rule decided. */
  decided: number;
  /** Test requests that reached it (no earlier active rule matched). */
  reached: number;
  groups: GroupCoverage[];
}

interface OutcomeCoverage {
  app: string;
  outcome: CoveredOutcome;
  /** Test requests with this outcome. */
  tests: number;
}

export interface Ratio {
  covered: number;
  total: number;
}

export interface CoverageSummary {
  rules: Ratio;
  leaves: Ratio;
  groups: Ratio;
  outcomes: Ratio;
}

export interface CoverageReport {
  /** Active and paused rules in scope, in app then priority order. */
  rules: RuleCoverage[];
  outcomes: OutcomeCoverage[];
  summary: CoverageSummary;
  /** The rule names coverage was restricted to, when it was. */
  only?: string[];
}

export interface AppRules {
  app: string;
  rules: readonly CoveredRule[];
  tests: readonly RuleTest[];
}

interface CoverageOptions {
  evaluation?: EvaluationOptions;
  /** Count only these rules (the set's outcomes are then not counted). */
  only?: ReadonlySet<string>;
}

export function measureCoverage(apps: readonly AppRules[], options: CoverageOptions = {}): CoverageReport {
  const evaluation = options.evaluation ?? {};
  const rules: RuleCoverage[] = [];
  const outcomes: OutcomeCoverage[] = [];
  for (const { app, rules: appRules, tests } of apps) {
    const coverage = appRules.map((rule, index) => emptyCoverage(app, rule, index));
    const byOutcome = new Map<CoveredOutcome, number>(outcomesOf(appRules).map((outcome) => [outcome, 0]));
    // The compiled rule set (docs/design.md, "One rule engine") decides and observes each test.
    const program = compileProgram([appRules]);
    const set = program.sets[0] as ProgramSet<CoveredRule>;
    const verdicts = new ProgramVerdicts(program, evaluation);
    for (const test of tests) {
      verdicts.begin(test.request);
      const decision = verdicts.decision(set);
      const last = decision.index === -1 ? appRules.length - 1 : decision.index;
      for (let index = 0; index <= last; index++) {
        const entry = coverage[index] as RuleCoverage;
        if (entry.paused) continue;
        entry.reached += 1;
        observe(entry, program.trees[set.treeOf[index] as number] as ProgramTree, verdicts);
      }
      if (decision.index !== -1) (coverage[decision.index] as RuleCoverage).decided += 1;
      for (const outcome of outcomeNames(decision.actions)) byOutcome.set(outcome, (byOutcome.get(outcome) ?? 0) + 1);
    }
    rules.push(...coverage.filter((entry) => options.only === undefined || options.only.has(entry.rule.name)));
    if (options.only === undefined) outcomes.push(...[...byOutcome].map(([outcome, count]) => ({ app, outcome, tests: count })));
  }
  const report: CoverageReport = { rules, outcomes, summary: summarise(rules, outcomes) };
  if (options.only !== undefined) report.only = [...options.only].sort();
  return report;
}

function emptyCoverage(app: string, rule: CoveredRule, index: number): RuleCoverage {
  const groups = rule.conditions.children.map((group, g) => ({ group: g, true: 0, false: 0, leaves: group.children.map(() => ({ true: 0, false: 0 })) }));
  return { app, rule, index, paused: rule.status === 'paused', decided: 0, reached: 0, groups };
}

/** Every group and leaf of the rule's tree, for the request the verdicts were begun with. */
function observe(entry: RuleCoverage, tree: ProgramTree, verdicts: ProgramVerdicts): void {
  tree.groups.forEach((group, g) => {
    const seen = entry.groups[g] as GroupCoverage;
    count(seen, verdicts.group(group));
    group.leaves.forEach((leaf, l) => count(seen.leaves[l] as Seen, verdicts.leaf(leaf)));
  });
}

/** An undecided verdict (a `$re` pattern over its time budget) was seen neither way. */
function count(seen: Seen, value: Verdict): void {
  if (value === true) seen.true += 1;
  else if (value === false) seen.false += 1;
}

/** The outcomes a rule set can have: its active rules' actions, and none. */
function outcomesOf(rules: readonly NormalRule[]): CoveredOutcome[] {
  const found = new Set<CoveredOutcome>(['none']);
  for (const rule of rules) if (rule.status === 'active') for (const outcome of outcomeNames(rule.actions)) found.add(outcome);
  return OUTCOMES.filter((outcome) => found.has(outcome));
}

function outcomeNames(actions: readonly Action[]): CoveredOutcome[] {
  return actions.length === 0 ? ['none'] : actions.map((action) => OUTCOME_OF[action]);
}

function bothWays(seen: Seen): boolean {
  return seen.true > 0 && seen.false > 0;
}

function summarise(rules: readonly RuleCoverage[], outcomes: readonly OutcomeCoverage[]): CoverageSummary {
  const active = rules.filter((entry) => !entry.paused);
  const groups = active.flatMap((entry) => entry.groups);
  const leaves = groups.flatMap((group) => group.leaves);
  return {
    rules: ratio(active, (entry) => entry.decided > 0),
    leaves: ratio(leaves, bothWays),
    groups: ratio(groups, bothWays),
    outcomes: ratio(outcomes, (entry) => entry.tests > 0),
  };
}

function ratio<T>(items: readonly T[], covered: (item: T) => boolean): Ratio {
  return { covered: items.filter(covered).length, total: items.length };
}

/** A ratio as a percentage; 100 when there is nothing to cover. */
export function coveredPercent(value: Ratio): number {
  return value.total === 0 ? 100 : (100 * value.covered) / value.total;
}

/** One decimal, never rounded up to 100 % (99.96 is 99.9 %): 100 % means everything. */
export function formatPercent(value: number): string {
  const shown = value < 100 ? Math.min(99.9, Math.round(value * 10) / 10) : value;
  return `${shown.toFixed(1)}%`;
}

/** Something the tests leave uncovered, with where it is written (a path below its rule). */
export interface UncoveredItem {
  app: string;
  rule: CoveredRule;
  index: number;
  kind: 'rule' | 'group' | 'leaf';
  /** What, in words: `group 2`, `userAgent $contains "Googlebot" (group 1)`. */
  label: string;
  /** What no test did: `decided no test request`, `never seen false`. */
  missing: string;
  path: (string | number)[];
  group?: number;
  leaf?: number;
  /** The truth value no reaching request gave it (leaves and groups seen one way only). */
  unseen?: boolean;
  /** Where it is written (filled in by the caller, which can read the rule files). */
  where?: SourceLocation;
  /** A change to a test request that would cover it, checked with the evaluator. */
  suggestion?: string;
}

/** The uncovered rules, groups and leaves of the active rules, in report order. */
export function uncoveredItems(report: CoverageReport): UncoveredItem[] {
  const out: UncoveredItem[] = [];
  for (const entry of report.rules) {
    if (entry.paused) continue;
    const base = { app: entry.app, rule: entry.rule, index: entry.index };
    if (entry.decided === 0) out.push({ ...base, kind: 'rule', label: 'rule', missing: entry.reached === 0 ? 'no test request reaches it' : `decided none of the ${entry.reached} test requests that reach it`, path: [] });
    for (const group of entry.groups) {
      const groupPath = ['conditions', 'children', group.group];
      const written = entry.rule.conditions.children[group.group];
      if (!bothWays(group)) out.push({ ...base, kind: 'group', label: `group ${group.group + 1} (${written?.operator ?? ''})`, missing: missingText(group), path: groupPath, group: group.group, ...unseen(group) });
      group.leaves.forEach((leaf, l) => {
        if (bothWays(leaf)) return;
        const condition = written?.children[l];
        const label = condition === undefined ? `condition ${l + 1}` : `${describeLeaf(condition)} (group ${group.group + 1})`;
        out.push({ ...base, kind: 'leaf', label, missing: missingText(leaf), path: [...groupPath, 'children', l], group: group.group, leaf: l, ...unseen(leaf) });
      });
    }
  }
  return out;
}

function missingText(seen: Seen): string {
  if (seen.true === 0 && seen.false === 0) return 'never evaluated: no test request reaches its rule';
  return seen.true === 0 ? 'never seen true' : 'never seen false';
}

function unseen(seen: Seen): { unseen?: boolean } {
  if (seen.true === 0 && seen.false === 0) return {};
  return { unseen: seen.true === 0 };
}
