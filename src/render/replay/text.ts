// The replay report as text for a terminal or a CI log; untrusted text through safeText.
import type { ReplayReport, Transition } from '../../replay/tally.js';
import type { Colors, RenderOptions, Sink } from '../contract.js';
import { safeText } from '../sanitise.js';
import { engineSentence, exampleText, headline, notAppliedSentence, shareText, RULE_PAIRS_SHOWN, rulePairText, sameOutcomeSentence, shadowHeading, shadowNoChangeSentence, transitionTitle, undecidedRequestsSentence } from './describe.js';
import { plural } from '../../plural.js';
import { agreementLine, disagreementTitle } from './production.js';
import { baselineHeading, baselineLines } from './baseline.js';
import { coverageWarnings, fieldCountsText, hasCoverageProblem, noChangeSentence } from './coverage.js';

export function renderReplayText(report: ReplayReport, sink: Sink, options: RenderOptions): void {
  const { colors } = options;
  const lines = [safeText(headline(report))];
  const notApplied = notAppliedSentence(report);
  if (notApplied !== undefined) lines.push(colors.yellow(safeText(notApplied)));
  if (report.skipped.length > 0) {
    lines.push('Skipped lines:');
    for (const skip of report.skipped) {
      lines.push(`    ${skip.count} ${safeText(skip.reason)} (first at ${safeText(`${skip.first.file}:${skip.first.line}`)})`);
    }
  }
  const coverage = report.coverage;
  if (hasCoverageProblem(coverage)) {
    lines.push(...coverageWarnings(report).map((warning) => colors.yellow(safeText(warning))));
    lines.push(`    ${safeText(fieldCountsText(coverage, report.evaluated))}`);
    for (const example of coverage.examples) lines.push(`    e.g. ${safeText(exampleText(example))}`);
  }
  if (report.transitions.length === 0) lines.push(safeText(noChangeSentence(report)));
  else {
    lines.push(`Outcome changes, live → declared (riskiest first):`);
    lines.push(...transitionLines(report.transitions, colors));
  }
  const same = sameOutcomeSentence(report);
  if (same !== undefined) lines.push(same);
  const undecided = undecidedRequestsSentence(report);
  if (undecided !== undefined) lines.push(colors.yellow(undecided));
  if (report.baseline !== undefined) {
    lines.push(safeText(baselineHeading(report.baseline)));
    for (const line of baselineLines(report.baseline)) lines.push(`    ${safeText(line)}`);
  }
  if (report.production !== undefined) {
    lines.push(safeText(agreementLine(report.production)));
    for (const group of report.production.disagreements) {
      lines.push(`    ${colors.yellow(safeText(disagreementTitle(group)))}`);
      for (const example of group.examples) lines.push(`        e.g. ${safeText(exampleText(example))}`);
    }
  }
  if (report.shadow !== undefined) {
    lines.push(safeText(shadowHeading(report.shadow)));
    if (report.shadow.transitions.length === 0) lines.push(`    ${shadowNoChangeSentence(report.shadow)}`);
    else lines.push(...transitionLines(report.shadow.transitions, colors));
  }
  const engine = engineSentence(report);
  if (engine !== undefined) lines.push(safeText(engine));
  sink.write(`${lines.join('\n')}\n`);
}

function transitionLines(transitions: readonly Transition[], colors: Colors): string[] {
  const lines: string[] = [];
  for (const transition of transitions) {
    const title = `${transitionTitle(transition)}: ${plural(transition.count, 'request')} (${shareText(transition.share)})`;
    lines.push(`    ${transition.to === 'block' || transition.to === 'challenge' ? colors.red(title) : colors.yellow(title)}`);
    for (const pair of transition.rules.slice(0, RULE_PAIRS_SHOWN)) lines.push(`        ${safeText(rulePairText(pair))}`);
    const more = transition.rules.length - RULE_PAIRS_SHOWN;
    if (more > 0) lines.push(`        … and ${plural(more, 'other pair')} of rules`);
    for (const example of transition.examples) lines.push(`        e.g. ${safeText(exampleText(example))}`);
  }
  return lines;
}
