// `botrules test --coverage` / `--mutate` for a terminal or a CI log: the test results as
// `botrules test` prints them, then the coverage summary and what is uncovered, then the
// mutation score and every surviving mutant, each at FILE:LINE:COL. Names and values come from
// rule and test files (untrusted): every line passes through the sanitiser.
import type { RenderOptions, Sink } from '../contract.js';
import { formatPercent, coveredPercent, type CoverageSummary, type Ratio } from '../../tests/coverage.js';
import { safeText } from '../sanitise.js';
import { mutantLine, notRunSentence, placeOf, type CoverageView, type MutationView, type QualityView } from './quality-model.js';
import { renderTestText } from './text.js';
import { plural } from '../../plural.js';

export function renderQualityText(view: QualityView, out: Sink, options: RenderOptions): void {
  renderTestText(view.results, out, { colors: options.colors, showApps: view.showApps, against: view.against });
  if (view.coverage !== undefined) coverageText(view.coverage, out, options);
  if (view.mutation !== undefined) mutationText(view.mutation, out, options);
}

function line(out: Sink, text: string): void {
  out.write(`${safeText(text)}\n`);
}

function coverageText(view: CoverageView, out: Sink, options: RenderOptions): void {
  const c = options.colors;
  const { report } = view;
  out.write('\n');
  line(out, `Coverage${report.only === undefined ? '' : ` of ${plural(report.only.length, 'selected rule')}`}:`);
  for (const [label, ratio] of summaryRows(report.summary, report.only !== undefined)) line(out, `  ${label.padEnd(18)} ${ratioText(ratio)}`);
  const outcomes = report.outcomes.map((entry) => `${entry.outcome} ${entry.tests > 0 ? '✓' : '✗'}`);
  if (outcomes.length > 0) line(out, `  ${'outcome'.padEnd(18)} ${outcomes.join(', ')}`);
  const paused = report.rules.filter((entry) => entry.paused);
  if (paused.length > 0) line(out, `  paused, not counted: ${paused.map((entry) => JSON.stringify(entry.rule.name)).join(', ')}`);
  for (const item of view.uncovered) {
    const where = placeOf(item.where);
    const what = item.kind === 'rule' ? JSON.stringify(item.rule.name) : `${JSON.stringify(item.rule.name)}: ${item.label}`;
    line(out, `${where === '' ? '' : `${where}: `}${what} ${item.missing}`);
    if (item.suggestion !== undefined) line(out, `    a test request that would cover it: ${item.suggestion}`);
  }
  for (const shortfall of view.shortfalls) out.write(`${c.red(safeText(shortfall))}\n`);
}

export function summaryRows(summary: CoverageSummary, restricted: boolean): [string, Ratio][] {
  const rows: [string, Ratio][] = [['rules decided', summary.rules], ['leaves both ways', summary.leaves], ['groups both ways', summary.groups]];
  if (!restricted) rows.push(['outcomes', summary.outcomes]);
  return rows;
}

export function ratioText(ratio: Ratio): string {
  return `${ratio.covered}/${ratio.total} (${formatPercent(coveredPercent(ratio))})`;
}

function mutationText(view: MutationView, out: Sink, options: RenderOptions): void {
  const c = options.colors;
  out.write('\n');
  if (view.report === undefined) {
    line(out, `Mutation testing not run: ${view.skipped ?? ''}`);
    return;
  }
  const { summary } = view.report;
  line(out, `Mutation testing: ${summary.total} mutants${view.report.only === undefined ? '' : ` of ${plural(view.report.only.length, 'selected rule')}`}; ${summary.killed} killed, ${summary.survived} survived, ${summary.equivalent} equivalent (not counted)`);
  const notRun = notRunSentence(view.report);
  if (notRun !== undefined) line(out, notRun);
  for (const result of view.report.results) {
    if (result.status !== 'survived') continue;
    const where = placeOf(result.where);
    line(out, `${where === '' ? '' : `${where}: `}${mutantLine(result)}`);
  }
  out.write(`${c.bold(safeText(`Mutation score: ${formatPercent(summary.score)} (${summary.killed} of ${summary.killed + summary.survived} killed)`))}\n`);
  for (const shortfall of view.shortfalls) out.write(`${c.red(safeText(shortfall))}\n`);
}
