// `botrules test --coverage` / `--mutate --format markdown`: the pull-request comment. The
// figures in a table, what is uncovered and every surviving mutant as a list with its place;
// text from rule and test files goes through the Markdown sanitiser (no mention, link, image
// or HTML from data), and long lists are capped to stay under GitHub's size limit.
import type { RenderOptions, Sink } from '../contract.js';
import { formatPercent } from '../../tests/coverage.js';
import { capped, htmlCode, markdownText, table, withinBudget } from '../markdown.js';
import { mutantLine, notRunSentence, placeOf, type CoverageView, type MutationView, type QualityView } from './quality-model.js';
import { ratioText, summaryRows } from './quality-text.js';

export function renderQualityMarkdown(view: QualityView, out: Sink, _options?: RenderOptions): void {
  out.write(withinBudget((maxRows) => document(view, maxRows)));
}

function document(view: QualityView, maxRows: number): string {
  const failed = view.results.filter((result) => !result.passed).length;
  const lines = [`### botrules test: ${view.results.length} tests, ${view.results.length - failed} passed, ${failed} failed`, ''];
  if (view.coverage !== undefined) lines.push(...coverageSection(view.coverage, maxRows));
  if (view.mutation !== undefined) lines.push(...mutationSection(view.mutation, maxRows));
  return `${lines.join('\n')}\n`;
}

function coverageSection(view: CoverageView, maxRows: number): string[] {
  const { report } = view;
  const scope = report.only === undefined ? '' : ` of the ${report.only.length} changed or selected rules`;
  const lines = [`#### Coverage${scope}`, ''];
  lines.push(...table(['', 'covered'], summaryRows(report.summary, report.only !== undefined).map(([label, ratio]) => [label, ratioText(ratio)]), ['l', 'r']), '');
  if (report.outcomes.length > 0) lines.push(`Outcomes: ${report.outcomes.map((entry) => `${entry.outcome} ${entry.tests > 0 ? '✓' : '✗'}`).join(', ')}`, '');
  const { shown, note } = capped(view.uncovered, maxRows, 'run `botrules test --coverage` for the full list');
  for (const item of shown) {
    const what = item.kind === 'rule' ? '' : ` ${item.label}`;
    const hint = item.suggestion === undefined ? '' : ` — a test request that would cover it: ${item.suggestion}`;
    lines.push(`- ${htmlCode(placeOf(item.where))} ${markdownText(`${JSON.stringify(item.rule.name)}${what} ${item.missing}${hint}`)}`);
  }
  if (note !== undefined) lines.push('', note);
  for (const shortfall of view.shortfalls) lines.push('', `**${markdownText(shortfall)}**`);
  lines.push('');
  return lines;
}

function mutationSection(view: MutationView, maxRows: number): string[] {
  if (view.report === undefined) return ['#### Mutation testing', '', markdownText(`Not run: ${view.skipped ?? ''}`), ''];
  const { summary } = view.report;
  const lines = ['#### Mutation testing', ''];
  lines.push(`Mutation score **${formatPercent(summary.score)}**: ${summary.killed} killed, ${summary.survived} survived, ${summary.equivalent} equivalent (not counted) of ${summary.total} mutants.`, '');
  const notRun = notRunSentence(view.report);
  if (notRun !== undefined) lines.push(markdownText(notRun), '');
  const survivors = view.report.results.filter((result) => result.status === 'survived');
  const { shown, note } = capped(survivors, maxRows, 'run `botrules test --mutate` for the full list');
  for (const result of shown) lines.push(`- ${htmlCode(placeOf(result.where))} ${markdownText(mutantLine(result))}`);
  if (note !== undefined) lines.push('', note);
  for (const shortfall of view.shortfalls) lines.push('', `**${markdownText(shortfall)}**`);
  lines.push('');
  return lines;
}
