// `botrules test --coverage` and `--mutate` (docs/evaluation.md, "Coverage", "Mutation
// testing"): how much of the rules the tests exercise, and whether they notice small changes.
// Runs on the rules and tests `runRuleTests` already loaded; the rule files are read again only
// to locate what a report points at. `--rules` and `--changed-since` narrow both to some rules.
import { UserError } from '../errors.js';
import { Exercise } from '../validate/exercise.js';
import { provedDisjoint, redundantLeaf, sameAddresses } from '../validate/equivalence.js';
import type { EvaluationOptions } from '../evaluate/leaf.js';
import type { Group, NormalRule } from '../semantics/model.js';
import { formatPercent, measureCoverage, coveredPercent, uncoveredItems, type AppRules, type CoverageReport, type Ratio, type UncoveredItem } from '../tests/coverage.js';
import { mutantsOf, type Mutant } from '../tests/mutants.js';
import { runMutants, type MutationReport } from '../tests/mutate.js';
import { appOf } from '../tests/run.js';
import type { Runtime } from '../runtime.js';
import { rulesChangedSince } from './changed-rules.js';
import { rulePositions, type PositionOf } from './rule-positions.js';
import type { RuleTestRun, RuleTestSuite } from './rule-tests.js';
import type { CoverageView, MutationView, QualityView } from '../render/tests/quality-model.js';
import { definedFields } from '../defined.js';

interface QualityRequest {
  ignoreCase: boolean;
  /** Only these rules (names). */
  rules?: string[];
  /** Only the rules whose normal form differs at this git revision. */
  changedSince?: string;
  maxMutants?: number;
  /** Seconds after which no further mutant is started. */
  mutateTimeout?: number;
}

/** Uncovered items beyond this many get no suggested request (each costs evaluations). */
const MAX_SUGGESTIONS = 50;

/** What `botrules test --coverage --mutate` measures, and the thresholds a shortfall is read against. */
export interface QualityMeasure {
  coverage: boolean;
  mutate: boolean;
  failUnder?: { rules?: number; leaves?: number };
  minScore?: number;
  request: QualityRequest;
}

/**
 * The use case: the tests' results with their coverage and mutation score, each with its
 * shortfalls. Mutation testing needs a suite that passes; otherwise it says why it did not run.
 */
export async function measureTestQuality(measure: QualityMeasure, suite: RuleTestSuite, run: RuleTestRun, ctx: Runtime, onMutant?: (done: number, total: number) => void): Promise<QualityView> {
  const scope = await qualityScope(suite, run, measure.request, ctx);
  const failed = run.results.filter((result) => !result.passed).length;
  let coverage: CoverageView | undefined;
  if (measure.coverage) {
    const measured = coverageOf(scope, measure.request);
    coverage = { ...measured, shortfalls: coverageShortfalls(measured.report, measure.failUnder ?? {}) };
  }
  let mutation: MutationView | undefined;
  if (measure.mutate && failed > 0) {
    mutation = { skipped: `${failed} of ${run.results.length} tests fail; mutation testing needs a suite that passes`, shortfalls: [] };
  } else if (measure.mutate) {
    const report = mutationOf(scope, measure.request, onMutant);
    mutation = { report, shortfalls: scoreShortfalls(report, measure.minScore) };
  }
  return { results: run.results, showApps: run.apps.length > 1, against: run.against, ...definedFields({ coverage, mutation }) };
}

interface CoverageResult {
  report: CoverageReport;
  uncovered: UncoveredItem[];
}

/** The apps, their rules and tests, and the rule names in scope (all when undefined). */
interface QualityScope {
  apps: AppRules[];
  only?: Set<string>;
  positions: Map<string, PositionOf>;
}

async function qualityScope(suite: RuleTestSuite, run: RuleTestRun, request: QualityRequest, ctx: Runtime): Promise<QualityScope> {
  const apps = suite.selected.apps.map((app) => ({
    app: app.name,
    rules: run.rules.get(app.name) ?? [],
    tests: suite.tests.filter((test) => appOf(test, suite.allApps) === app.name),
  }));
  const positions = new Map(apps.map((app) => [app.app, rulePositions(app.rules, ctx.cwd)]));
  let only: Set<string> | undefined;
  if (request.rules !== undefined) {
    const known = new Set(apps.flatMap((app) => app.rules.map((rule) => rule.name)));
    const unknown = request.rules.filter((name) => !known.has(name));
    if (unknown.length > 0) throw new UserError(`--rules names ${unknown.map((name) => JSON.stringify(name)).join(', ')}, which no rule file declares`);
    only = new Set(request.rules);
  }
  if (request.changedSince !== undefined) {
    const changed = new Set<string>();
    for (const app of suite.selected.apps) {
      for (const name of await rulesChangedSince(request.changedSince, run.rules.get(app.name) ?? [], app.rulesDir, ctx.cwd)) changed.add(name);
    }
    only = only === undefined ? changed : new Set([...only].filter((name) => changed.has(name)));
  }
  return { apps, positions, ...definedFields({ only }) };
}

function coverageOf(scope: QualityScope, request: QualityRequest): CoverageResult {
  const evaluation = { caseInsensitiveValues: request.ignoreCase };
  const report = measureCoverage(scope.apps, { evaluation, ...definedFields({ only: scope.only }) });
  const exerciseOf = exercises(evaluation);
  const uncovered = uncoveredItems(report).map((item, n): UncoveredItem => {
    const app = scope.apps.find((each) => each.app === item.app);
    const where = scope.positions.get(item.app)?.(item.index, item.path);
    const suggestion = app === undefined || n >= MAX_SUGGESTIONS ? undefined : suggest(item, exerciseOf(app));
    return { ...item, ...definedFields({ where, suggestion }) };
  });
  return { report, uncovered };
}

/** Each app's rules compiled for suggestions once, when its first uncovered item asks. */
function exercises(evaluation: EvaluationOptions): (app: AppRules) => Exercise {
  const known = new Map<string, Exercise>();
  return (app) => {
    let exercise = known.get(app.app);
    if (exercise === undefined) known.set(app.app, (exercise = new Exercise(app.rules, app.tests.map((test) => ({ name: test.name, request: test.request })), evaluation)));
    return exercise;
  };
}

function suggest(item: UncoveredItem, exercise: Exercise): string | undefined {
  if (item.kind === 'rule') return exercise.changeToDecide(item.index);
  if (item.kind === 'leaf' && item.unseen !== undefined && item.group !== undefined && item.leaf !== undefined) {
    return exercise.changeToFlip(item.index, { group: item.group, leaf: item.leaf }, item.unseen);
  }
  return undefined;
}

function mutationOf(scope: QualityScope, request: QualityRequest, progress?: (done: number, total: number) => void): MutationReport {
  const evaluation = { caseInsensitiveValues: request.ignoreCase };
  const apps = scope.apps.map((app) => {
    const indexes = app.rules.flatMap((rule, index) => (scope.only === undefined || scope.only.has(rule.name) ? [index] : []));
    return { ...app, mutants: mutantsOf(app.rules, indexes) };
  });
  const start = Date.now();
  const report = runMutants(apps, {
    evaluation,
    ...definedFields({ maxMutants: request.maxMutants }),
    ...(request.mutateTimeout === undefined ? {} : { deadline: start + request.mutateTimeout * 1000 }),
    ...definedFields({ progress }),
    ...(request.ignoreCase ? {} : { equivalence: provedEquivalent }),
    ...definedFields({ only: scope.only && [...scope.only].sort() }),
  });
  for (const result of report.results) {
    if (result.status === 'not-run') continue;
    const where = scope.positions.get(result.app)?.(result.mutant.index, result.mutant.path);
    if (where !== undefined) result.where = where;
  }
  return report;
}

/** Equivalences the analysis proves exactly (values compared as written). */
export function provedEquivalent(rules: readonly NormalRule[], mutant: Mutant): string | undefined {
  const rule = rules[mutant.index] as NormalRule;
  if (mutant.swapWith !== undefined) return provedDisjoint(rule.conditions, (rules[mutant.swapWith] as NormalRule).conditions);
  const path = mutant.path;
  if (mutant.kind === 'drop-leaf') return redundantLeaf(rule.conditions.children[path[2] as number] as Group, path[4] as number);
  if ((mutant.kind === 'cidr-widen' || mutant.kind === 'cidr-narrow') && mutant.leafChange !== undefined) {
    const { before, after } = mutant.leafChange;
    const k = path[6];
    if (!Array.isArray(before.value) || !Array.isArray(after.value) || typeof k !== 'number') return undefined;
    return sameAddresses(before.value, before.value[k] ?? '', after.value[k] ?? '');
  }
  return undefined;
}

/** `--fail-under RULES[,LEAVES]`: a sentence per threshold the coverage is below. */
function coverageShortfalls(report: CoverageReport, thresholds: { rules?: number; leaves?: number }): string[] {
  const out: string[] = [];
  const check = (what: string, ratio: Ratio, wanted: number | undefined) => {
    if (wanted !== undefined && coveredPercent(ratio) < wanted) out.push(`${what} coverage ${percentText(ratio)} is below --fail-under ${wanted}%`);
  };
  check('rule', report.summary.rules, thresholds.rules);
  check('leaf', report.summary.leaves, thresholds.leaves);
  return out;
}

/** `--min-score`: a sentence when the mutation score is below it. */
function scoreShortfalls(report: MutationReport, minScore: number | undefined): string[] {
  if (minScore === undefined || report.summary.score >= minScore) return [];
  return [`mutation score ${formatPercent(report.summary.score)} is below --min-score ${minScore}%`];
}

function percentText(ratio: Ratio): string {
  return `${formatPercent(coveredPercent(ratio))} (${ratio.covered}/${ratio.total})`;
}
