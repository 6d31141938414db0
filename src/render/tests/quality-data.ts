// `botrules test --coverage` / `--mutate` as data: JSON (exact figures and every item, for
// tools), SARIF (failed tests as errors, uncovered rules and surviving mutants as notes on
// their lines, for code scanning) and JUnit XML (the test results, the figures as properties).
import type { RenderOptions, Sink } from '../contract.js';
import { formatPercent, coveredPercent, type Ratio } from '../../tests/coverage.js';
import { renderSarif, type SarifFinding } from '../sarif/index.js';
import { testSarif } from './sarif.js';
import { safeJson } from '../sanitise.js';
import { renderTestJunit } from './junit.js';
import { mutantLine, notRunSentence, type CoverageView, type MutationView, type QualityView } from './quality-model.js';
import { definedFields } from '../../defined.js';

export function renderQualityJson(view: QualityView, out: Sink, _options?: RenderOptions): void {
  const failed = view.results.filter((result) => !result.passed).length;
  const document = {
    tests: { total: view.results.length, passed: view.results.length - failed, failed },
    ...definedFields({ coverage: view.coverage && coverageJson(view.coverage), mutation: view.mutation && mutationJson(view.mutation) }),
  };
  out.write(`${safeJson(JSON.stringify(document, null, 2))}\n`);
}

function ratioJson(ratio: Ratio): object {
  return { ...ratio, percent: Math.round(coveredPercent(ratio) * 100) / 100 };
}

function coverageJson(view: CoverageView): object {
  const { report } = view;
  const { rules, leaves, groups, outcomes } = report.summary;
  return {
    summary: { rules: ratioJson(rules), leaves: ratioJson(leaves), groups: ratioJson(groups), outcomes: ratioJson(outcomes) },
    ...definedFields({ only: report.only }),
    rules: report.rules.map((entry) => ({
      app: entry.app, name: entry.rule.name, ...entry.rule.source, paused: entry.paused, decided: entry.decided, reached: entry.reached,
      groups: entry.groups.map((group) => ({ number: group.group + 1, true: group.true, false: group.false, leaves: group.leaves.map((leaf, l) => ({ number: l + 1, ...leaf })) })),
    })),
    outcomes: report.outcomes,
    uncovered: view.uncovered.map((item) => ({
      app: item.app, rule: item.rule.name, kind: item.kind, label: item.label, missing: item.missing, ...item.where,
      ...definedFields({ suggestion: item.suggestion }),
    })),
    shortfalls: view.shortfalls,
  };
}

function mutationJson(view: MutationView): object {
  if (view.report === undefined) return { skipped: view.skipped ?? '' };
  const { report } = view;
  return {
    summary: { ...report.summary, score: Math.round(report.summary.score * 100) / 100 },
    ...definedFields({ stoppedBy: report.stoppedBy, only: report.only }),
    mutants: report.results.map((result) => ({
      app: result.app, rule: result.rule.name, kind: result.mutant.kind, mutation: result.mutant.description, status: result.status,
      ...result.where,
      ...definedFields({ killedBy: result.killedBy, equivalence: result.equivalence }),
    })),
    shortfalls: view.shortfalls,
  };
}

const UNCOVERED_RULE = { id: 'uncovered-rule', description: 'No test request is decided by this rule (botrules test --coverage).' };
const SURVIVING_MUTANT = { id: 'surviving-mutant', description: 'A small change to this rule that no test notices (botrules test --mutate).' };

export function renderQualitySarif(view: QualityView, out: Sink, _options?: RenderOptions): void {
  const tests = testSarif([], view.results);
  const notes: SarifFinding[] = [];
  for (const item of view.coverage?.uncovered ?? []) {
    if (item.kind !== 'rule' || item.where === undefined) continue;
    const hint = item.suggestion === undefined ? '' : `; a test request that would cover it: ${item.suggestion}`;
    notes.push({ ruleId: UNCOVERED_RULE.id, level: 'note', ...item.where, message: `rule ${JSON.stringify(item.rule.name)} ${item.missing}${hint}` });
  }
  for (const result of view.mutation?.report?.results ?? []) {
    if (result.status !== 'survived' || result.where === undefined) continue;
    notes.push({ ruleId: SURVIVING_MUTANT.id, level: 'note', ...result.where, message: mutantLine(result) });
  }
  renderSarif({ rules: [...tests.rules, UNCOVERED_RULE, SURVIVING_MUTANT], results: [...tests.results, ...notes] }, out);
}

export function renderQualityJunit(view: QualityView, out: Sink, _options?: RenderOptions): void {
  const properties: [string, string][] = [];
  const ratio = (name: string, value: Ratio) => properties.push([`${name}.covered`, String(value.covered)], [`${name}.total`, String(value.total)], [`${name}.percent`, formatPercent(coveredPercent(value))]);
  const summary = view.coverage?.report.summary;
  if (summary !== undefined) {
    ratio('coverage.rules', summary.rules);
    ratio('coverage.leaves', summary.leaves);
    ratio('coverage.groups', summary.groups);
    ratio('coverage.outcomes', summary.outcomes);
  }
  const mutation = view.mutation?.report;
  if (mutation !== undefined) {
    const { killed, survived, equivalent, notRun, score } = mutation.summary;
    properties.push(['mutation.killed', String(killed)], ['mutation.survived', String(survived)], ['mutation.equivalent', String(equivalent)], ['mutation.notRun', String(notRun)], ['mutation.score', formatPercent(score)]);
    const notRunText = notRunSentence(mutation);
    if (notRunText !== undefined) properties.push(['mutation.note', notRunText]);
  }
  renderTestJunit(view.results, out, properties);
}
