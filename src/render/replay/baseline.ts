// Sentences comparing a replay with its baseline (docs/replay.md, "Baselines"): what newly
// changes outcome and what stopped. Untrusted text (rule names, the file): callers sanitise.
import type { BaselineChange, BaselineComparison } from '../../replay/baseline.js';
import { noun, plural } from '../../plural.js';
import { ruleName, shareText, transitionTitle } from './describe.js';

export function baselineHeading(baseline: BaselineComparison): string {
  if (baseline.newly.length === 0 && baseline.stopped.length === 0) return `Since the baseline ${baseline.file}: no outcome change is new or gone.`;
  return `Since the baseline ${baseline.file}: ${plural(baseline.newly.length, 'rule pair')} newly ${noun(baseline.newly.length, 'changes', 'change')} outcome, ` +
    `${plural(baseline.stopped.length, 'rule pair')} stopped.`;
}

function baselineChangeText(change: BaselineChange, kind: 'newly' | 'stopped'): string {
  const what = `${transitionTitle(change)}, ${ruleName(change.before)} → ${ruleName(change.after)}`;
  return kind === 'newly'
    ? `newly: ${what}: ${plural(change.count, 'request')} (${shareText(change.share)})`
    : `stopped: ${what}: ${plural(change.baselineCount, 'request')} in the baseline (${shareText(change.baselineShare)})`;
}

/** Every line of the comparison, newly first. */
export function baselineLines(baseline: BaselineComparison): string[] {
  return [
    ...baseline.newly.map((change) => baselineChangeText(change, 'newly')),
    ...baseline.stopped.map((change) => baselineChangeText(change, 'stopped')),
  ];
}
