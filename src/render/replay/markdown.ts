// The replay report as Markdown for a pull-request comment or a step summary: a table of
// transitions (riskiest first), then the rules and example requests of each, collapsed.
import type { ReplayReport, Transition } from '../../replay/tally.js';
import type { RenderOptions, Sink } from '../contract.js';
import { cell, codeFence, details, markdownHtml, table } from '../markdown.js';
import { markdownText, safeText } from '../sanitise.js';
import { agreementLine, disagreementTitle } from './production.js';
import { baselineHeading, baselineLines } from './baseline.js';
import { coverageWarnings, fieldCountsText, hasCoverageProblem, noChangeSentence } from './coverage.js';
import { engineSentence, exampleText, headline, notAppliedSentence, shareText, RULE_PAIRS_SHOWN, rulePairText, sameOutcomeSentence, shadowHeading, shadowNoChangeSentence, transitionTitle, undecidedRequestsSentence } from './describe.js';

export function renderReplayMarkdown(report: ReplayReport, sink: Sink, _options: RenderOptions): void {
  const parts = ['### Traffic replay\n\n', `${markdownText(headline(report))}\n\n`];
  const notApplied = notAppliedSentence(report);
  if (notApplied !== undefined) parts.push(`> [!WARNING]\n> ${markdownText(notApplied)}\n\n`);
  const coverage = report.coverage;
  if (hasCoverageProblem(coverage)) {
    const warnings = coverageWarnings(report).map((warning) => `> ${markdownText(warning)}`).join('\n>\n');
    parts.push(`> [!WARNING]\n${warnings}\n\n${markdownText(fieldCountsText(coverage, report.evaluated))}\n\n`);
    if (coverage.examples.length > 0) parts.push(details('Undecided for lack of fields: example requests', exampleBlock(coverage.examples.map(exampleText))));
  }
  if (report.transitions.length === 0) {
    parts.push(`${markdownText(noChangeSentence(report))}\n\n`);
  } else parts.push(...transitionParts(report.transitions));
  const same = sameOutcomeSentence(report);
  if (same !== undefined) parts.push(`${same}\n\n`);
  const undecided = undecidedRequestsSentence(report);
  if (undecided !== undefined) parts.push(`> [!WARNING]\n> ${markdownText(undecided)}\n\n`);
  if (report.skipped.length > 0) {
    const rows = report.skipped.map((skip) => [cell(skip.reason), String(skip.count), cell(`${skip.first.file}:${skip.first.line}`)]);
    parts.push(`${table(['Skipped because', 'Lines', 'First at'], rows, ['l', 'r', 'l']).join('\n')}\n\n`);
  }
  if (report.baseline !== undefined) {
    const lines = baselineLines(report.baseline).map((line) => `- ${markdownText(line)}`);
    parts.push(`#### Since the baseline\n\n${markdownText(baselineHeading(report.baseline))}\n\n${lines.length === 0 ? '' : `${lines.join('\n')}\n\n`}`);
  }
  if (report.production !== undefined) {
    parts.push(`#### Production's decisions\n\n${markdownText(agreementLine(report.production))}\n\n`);
    for (const group of report.production.disagreements) {
      parts.push(details(markdownHtml(disagreementTitle(group)), exampleBlock(group.examples.map(exampleText))));
    }
  }
  if (report.shadow !== undefined) {
    parts.push(`#### Shadow rules\n\n${markdownText(shadowHeading(report.shadow))}\n\n`);
    if (report.shadow.transitions.length === 0) parts.push(`${markdownText(shadowNoChangeSentence(report.shadow))}\n\n`);
    else parts.push(...transitionParts(report.shadow.transitions));
  }
  const engine = engineSentence(report);
  if (engine !== undefined) parts.push(`${markdownText(engine)}\n\n`);
  sink.write(parts.join('').replace(/\n\n$/, '\n'));
}

/** A table of transitions, then each one's rules and example requests, collapsed. */
function transitionParts(transitions: readonly Transition[]): string[] {
  const rows = transitions.map((t) => [cell(transitionTitle(t)), String(t.count), shareText(t.share), cell(t.rules[0] === undefined ? '' : rulePairText(t.rules[0]))]);
  const parts = [`${table(['Outcome change', 'Requests', 'Share', 'Main rules'], rows, ['l', 'r', 'r', 'l']).join('\n')}\n\n`];
  for (const transition of transitions) {
    const body = [
      ...transition.rules.slice(0, RULE_PAIRS_SHOWN).map((pair) => `- ${markdownText(rulePairText(pair))}`),
      '',
      exampleBlock(transition.examples.map(exampleText)),
    ].join('\n');
    parts.push(details(markdownHtml(`${transitionTitle(transition)}: rules and example requests`), body));
  }
  return parts;
}

/** Example requests in a code block, whose fence no backtick run in them can close. */
function exampleBlock(lines: readonly string[]): string {
  const content = lines.map(safeText).join('\n');
  const fence = codeFence(content);
  return `${fence}text\n${content}\n${fence}`;
}
