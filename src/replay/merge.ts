// `replay merge` (docs/replay.md, "Shards"): the JSON reports of replays over disjoint logs,
// given in log order, combined into the report one replay of all the logs gives: counts summed,
// shares of the summed evaluated requests, rule pairs summed by their rules, examples the first
// ones in shard order, skipped reasons first seen in the first shard that has them; the fields
// the log lacks and production's decisions the same way (merge-parts.ts). Every order a report
// lists is by count and then by name, never by where in the log something first occurred, so it
// does not depend on where a shard starts.
import { UserError } from '../errors.js';
import { mergeCoverage, mergeProduction, sum } from './merge-parts.js';
import { compareRulePairs, compareTransitions, EXAMPLES_PER_TRANSITION, type ReplayReport, type RulePair, type ShadowReport, type SkipCount, type Transition } from './tally.js';

interface ShardReport {
  /** Where the report was read from, for messages. */
  source: string;
  report: ReplayReport;
}

export function mergeReports(shards: readonly ShardReport[]): ReplayReport {
  const [first] = shards;
  if (first === undefined) throw new UserError('replay merge needs at least one report');
  for (const shard of shards) checkSameReplay(first, shard);
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
  const engine = mergeEngine(reports);
  if (engine !== undefined) merged.engine = engine;
  const shadows = reports.map((report) => report.shadow).filter((shadow): shadow is ShadowReport => shadow !== undefined);
  const [firstShadow] = shadows;
  if (firstShadow !== undefined) {
    // Shadow shares are of the requests the shadow rules decided: lines carrying no request field are not among them (engine/replay.ts).
    const decidedByShadow = evaluated - sum(reports.map((report) => report.coverage?.empty.count ?? 0));
    merged.shadow = { rules: [...firstShadow.rules], transitions: mergeTransitions(shadows.map((shadow) => shadow.transitions), decidedByShadow), undecided: sum(shadows.map((shadow) => shadow.undecided)) };
  }
  const coverage = mergeCoverage(reports, evaluated);
  if (coverage !== undefined) merged.coverage = coverage;
  const production = mergeProduction(reports);
  if (production !== undefined) merged.production = production;
  if (first.report.ruleSets !== undefined) merged.ruleSets = { ...first.report.ruleSets };
  return merged;
}

/** Shards of one replay: the same app, "before", rule sets, rules not applied, shadow rules, and the same parts reported. */
function checkSameReplay(first: ShardReport, shard: ShardReport): void {
  const { source, report } = shard;
  const refuse = (what: string) => {
    throw new UserError(`${source} and ${first.source} are not shards of one replay: ${what}`, [
      'Merge the reports of one replay command run over parts of one log: the same app, rules and live rules (or snapshot).',
    ]);
  };
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (report.app !== first.report.app) refuse(`the app is ${JSON.stringify(report.app)} in one and ${JSON.stringify(first.report.app)} in the other`);
  if (report.against !== first.report.against) refuse(`one was replayed against ${JSON.stringify(report.against)}, the other against ${JSON.stringify(first.report.against)}`);
  if (!same(report.ruleSets, first.report.ruleSets)) refuse('they compare other rule sets (the rules or the live rules differ, or one report is older than the other)');
  if (!same(report.notApplied, first.report.notApplied)) refuse('the rules the plan cannot apply differ');
  if (!same(report.shadow?.rules, first.report.shadow?.rules)) refuse('their shadow rules differ');
  // Production's part is there only where some line recorded a decision: one shard may have it and another not.
  if ((report.coverage === undefined) !== (first.report.coverage === undefined)) refuse('one reports the fields its log carries and the other does not (written by another version of botrules)');
}

/** The engine when every shard ran the same one, with the requests per second of all the shards' time. */
function mergeEngine(reports: readonly ReplayReport[]): ReplayReport['engine'] {
  const engines = reports.map((report) => report.engine);
  const [first] = engines;
  if (first === undefined || engines.some((engine) => engine?.name !== first.name)) return undefined;
  const seconds = sum(reports.map((report) => report.evaluated / Math.max(report.engine?.requestsPerSecond ?? 1, 1)));
  const evaluated = sum(reports.map((report) => report.evaluated));
  return { name: first.name, requestsPerSecond: Math.round(evaluated / Math.max(seconds, 1e-3)) };
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
