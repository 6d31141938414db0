// `replay merge` (docs/replay.md, "Shards"): the JSON reports of replays over disjoint logs,
// given in log order, combined into the report one replay of all the logs gives: counts summed,
// shares of the summed evaluated requests, rule pairs summed by their rules, examples the first
// ones in shard order, skipped reasons first seen in the first shard that has them.
import { UserError } from '../../errors.js';
import { compareRulePairs, compareTransitions, EXAMPLES_PER_TRANSITION, type ReplayReport, type RulePair, type ShadowReport, type SkipCount, type Transition } from './tally.js';

export interface ShardReport {
  /** Where the report was read from, for messages. */
  source: string;
  report: ReplayReport;
}

export function mergeReports(shards: readonly ShardReport[]): ReplayReport {
  const [first] = shards;
  if (first === undefined) throw new UserError('replay merge needs at least one report');
  for (const { source, report } of shards) {
    if (report.app !== first.report.app || report.against !== first.report.against || JSON.stringify(report.notApplied) !== JSON.stringify(first.report.notApplied)) {
      throw new UserError(`${source} is a replay of app ${JSON.stringify(report.app)} against ${report.against}, and ${first.source} of app ${JSON.stringify(first.report.app)} against ${first.report.against} (not applied: ${first.report.notApplied.join(', ') || 'none'}): only shards of one replay can be merged`);
    }
    if (JSON.stringify(report.shadow?.rules) !== JSON.stringify(first.report.shadow?.rules)) throw new UserError(`${source} was replayed with other shadow rules than ${first.source}: only shards of one replay can be merged`);
  }
  const reports = shards.map((shard) => shard.report);
  const evaluated = sum(reports.map((report) => report.evaluated));
  const merged: ReplayReport = {
    app: first.report.app,
    against: first.report.against,
    files: reports.flatMap((report) => report.files),
    notApplied: [...first.report.notApplied],
    read: sum(reports.map((report) => report.read)),
    evaluated,
    skipped: mergeSkipped(reports.flatMap((report) => report.skipped)),
    sameOutcomeOtherRule: sum(reports.map((report) => report.sameOutcomeOtherRule)),
    undecided: { live: sum(reports.map((report) => report.undecided.live)), declared: sum(reports.map((report) => report.undecided.declared)) },
    transitions: mergeTransitions(reports.map((report) => report.transitions), evaluated),
  };
  const shadows = reports.map((report) => report.shadow).filter((shadow): shadow is ShadowReport => shadow !== undefined);
  const [firstShadow] = shadows;
  if (firstShadow !== undefined) {
    merged.shadow = { rules: [...firstShadow.rules], transitions: mergeTransitions(shadows.map((shadow) => shadow.transitions), evaluated), undecided: sum(shadows.map((shadow) => shadow.undecided)) };
  }
  return merged;
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function mergeSkipped(all: readonly SkipCount[]): SkipCount[] {
  const byReason = new Map<string, SkipCount>();
  for (const skip of all) {
    const known = byReason.get(skip.reason);
    if (known === undefined) byReason.set(skip.reason, { reason: skip.reason, count: skip.count, first: { ...skip.first } });
    else known.count += skip.count;
  }
  return [...byReason.values()];
}

function mergeTransitions(shards: readonly (readonly Transition[])[], evaluated: number): Transition[] {
  const byOutcomes = new Map<string, Transition>();
  for (const transitions of shards) {
    for (const transition of transitions) {
      const key = `${transition.from}>${transition.to}`;
      const known = byOutcomes.get(key);
      if (known === undefined) {
        byOutcomes.set(key, { ...transition, rules: transition.rules.map((pair) => ({ ...pair })), examples: [...transition.examples] });
        continue;
      }
      known.count += transition.count;
      for (const pair of transition.rules) {
        const same = known.rules.find((candidate) => candidate.before === pair.before && candidate.after === pair.after);
        if (same === undefined) known.rules.push({ ...pair } as RulePair);
        else same.count += pair.count;
      }
      known.examples.push(...transition.examples.slice(0, EXAMPLES_PER_TRANSITION - known.examples.length));
    }
  }
  const merged = [...byOutcomes.values()].map((transition) => ({ ...transition, share: evaluated === 0 ? 0 : transition.count / evaluated, rules: transition.rules.sort(compareRulePairs) }));
  return merged.sort(compareTransitions);
}
