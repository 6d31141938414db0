// The replay report as text for a terminal or a CI log; untrusted text through safeText.
import type { ReplayReport } from '../../traffic/tally.js';
import type { RenderOptions, Sink } from '../contract.js';
import { safeText } from '../sanitise.js';
import { exampleText, headline, notAppliedSentence, NO_CHANGE_SENTENCE, percent, RULE_PAIRS_SHOWN, rulePairText, sameOutcomeSentence, transitionTitle } from './describe.js';
import { plural } from '../../plural.js';

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
  if (report.transitions.length === 0) lines.push(NO_CHANGE_SENTENCE);
  else {
    lines.push(`Outcome changes, live → declared (riskiest first):`);
    for (const transition of report.transitions) {
      const title = `${transitionTitle(transition)}: ${plural(transition.count, 'request')} (${percent(transition.share)})`;
      lines.push(`    ${transition.to === 'block' || transition.to === 'challenge' ? colors.red(title) : colors.yellow(title)}`);
      for (const pair of transition.rules.slice(0, RULE_PAIRS_SHOWN)) lines.push(`        ${safeText(rulePairText(pair))}`);
      const more = transition.rules.length - RULE_PAIRS_SHOWN;
      if (more > 0) lines.push(`        … and ${plural(more, 'other pair')} of rules`);
      for (const example of transition.examples) lines.push(`        e.g. ${safeText(exampleText(example))}`);
    }
  }
  const same = sameOutcomeSentence(report);
  if (same !== undefined) lines.push(same);
  sink.write(`${lines.join('\n')}\n`);
}
