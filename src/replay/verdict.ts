// A replay report reduced to what the traffic safety limit compares (plan/traffic-limit.ts):
// the requests that had no blocking outcome under the live rules and meet one under the
// declared rules, the rules that block them and a few examples.
import { EXAMPLES_KEPT, RULES_KEPT, type TrafficVerdict } from '../plan/traffic-limit.js';
import { BLOCKING_OUTCOMES, type ReplayReport, type Transition } from './tally.js';

/** Outcomes a request "had no blocking outcome" under: none and allow (undecided is not known). */
const UNBLOCKED = new Set(['none', 'allow']);

function isNewlyBlocked(transition: Pick<Transition, 'from' | 'to'>): boolean {
  return UNBLOCKED.has(transition.from) && BLOCKING_OUTCOMES.has(transition.to);
}

export function trafficVerdict(report: ReplayReport): TrafficVerdict {
  const newly = report.transitions.filter(isNewlyBlocked);
  const byRule = new Map<string, number>();
  for (const pair of newly.flatMap((transition) => transition.rules)) {
    // A blocking outcome always has a deciding rule.
    if (pair.after !== undefined) byRule.set(pair.after, (byRule.get(pair.after) ?? 0) + pair.count);
  }
  return {
    logs: [...report.files],
    evaluated: report.evaluated,
    newlyBlocked: newly.reduce((sum, transition) => sum + transition.count, 0),
    rules: [...byRule].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count).slice(0, RULES_KEPT),
    examples: newly.flatMap((transition) => transition.examples).slice(0, EXAMPLES_KEPT)
      .map((example) => `${example.file}:${example.line} ${JSON.stringify(example.request)}`),
  };
}
