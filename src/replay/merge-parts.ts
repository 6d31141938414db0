// The parts of shard reports beyond the transitions (merge.ts): the fields the log lacks
// (coverage) and production's own decisions (agreement), each merged to what one replay of the
// whole log reports. Parts listed in the order they first occurred (skipped reasons, unusable
// fields) are taken in shard order, which is log order; parts listed by size are re-sorted with
// the same comparison one replay uses.
import { compareDisagreements, MAX_DISAGREEMENT_GROUPS } from './agreement.js';
import type { RequestField } from './coverage.js';
import { compareMissing, EXAMPLES_PER_TRANSITION, type Disagreement, type MissingField, type ProductionAgreement, type ReplayCoverage, type ReplayExample, type ReplayReport } from './tally.js';

export function mergeCoverage(reports: readonly ReplayReport[], evaluated: number): ReplayCoverage | undefined {
  const parts = reports.map((report) => report.coverage).filter((coverage): coverage is ReplayCoverage => coverage !== undefined);
  const [first] = parts;
  if (first === undefined) return undefined;
  const carried = { ...first.carried };
  for (const part of parts.slice(1)) {
    for (const [field, count] of Object.entries(part.carried) as [RequestField, number][]) carried[field] = (carried[field] ?? 0) + count;
  }
  const partialHeaders = parts.find((part) => part.partialHeaders !== undefined)?.partialHeaders;
  const unusable = new Map<string, ReplayCoverage['unusable'][number]>();
  const missing = new Map<string, MissingField>();
  for (const part of parts) {
    for (const one of part.unusable) {
      const known = unusable.get(one.field);
      if (known === undefined) unusable.set(one.field, { ...one, first: { ...one.first } });
      else known.count += one.count;
    }
    for (const one of part.missing) {
      const known = missing.get(one.field);
      if (known === undefined) missing.set(one.field, { ...one, rules: [...one.rules] });
      else known.undecided += one.undecided;
    }
  }
  const firstEmpty = parts.find((part) => part.empty.first !== undefined)?.empty;
  const undecided = sum(parts.map((part) => part.undecided));
  return {
    carried,
    ...(partialHeaders === undefined ? {} : { partialHeaders: [...partialHeaders] }),
    unusable: [...unusable.values()],
    empty: {
      count: sum(parts.map((part) => part.empty.count)), keys: [...(firstEmpty?.keys ?? [])],
      ...(firstEmpty?.first === undefined ? {} : { first: { ...firstEmpty.first } }),
    },
    missing: [...missing.values()].sort(compareMissing),
    undecided,
    undecidedShare: evaluated === 0 ? 0 : undecided / evaluated,
    examples: firstExamples(parts.map((part) => part.examples)),
  };
}

/**
 * Production's decisions: counts summed, disagreement groups summed by direction and rule.
 * One replay folds the rules past the first MAX_DISAGREEMENT_GROUPS groups, in the order they
 * first disagreed, into one group of other rules; shards keep their own first ones, so past that
 * many groups the merge folds the groups that come last in shard order and the list of named
 * rules may differ from one replay's (counts and agreement do not).
 */
export function mergeProduction(reports: readonly ReplayReport[]): ProductionAgreement | undefined {
  const parts = reports.map((report) => report.production).filter((production): production is ProductionAgreement => production !== undefined);
  if (parts.length === 0) return undefined;
  const total = (pick: (part: ProductionAgreement) => number) => sum(parts.map(pick));
  const groups = new Map<string, Disagreement>();
  for (const group of parts.flatMap((part) => part.disagreements)) {
    let key = `${group.direction}\u0000${group.otherRules === true ? '\u0000other rules' : group.rule ?? ''}`;
    if (!groups.has(key) && group.otherRules !== true && groups.size >= MAX_DISAGREEMENT_GROUPS) key = `${group.direction}\u0000\u0000other rules`;
    const known = groups.get(key);
    if (known === undefined) {
      const folded = key.endsWith('\u0000other rules');
      groups.set(key, { direction: group.direction, rule: folded ? undefined : group.rule, ...(folded ? { otherRules: true as const } : {}), count: group.count, examples: [...group.examples] });
      continue;
    }
    known.count += group.count;
    known.examples.push(...group.examples.slice(0, EXAMPLES_PER_TRANSITION - known.examples.length));
  }
  const compared = total((part) => part.compared);
  const agreed = total((part) => part.agreed);
  return {
    recorded: total((part) => part.recorded), compared, agreed,
    agreement: compared === 0 ? 1 : agreed / compared,
    disagreements: [...groups.values()].sort(compareDisagreements),
    byService: total((part) => part.byService), undecided: total((part) => part.undecided), simulated: total((part) => part.simulated),
  };
}

function firstExamples(lists: readonly (readonly ReplayExample[])[]): ReplayExample[] {
  return lists.flat().slice(0, EXAMPLES_PER_TRANSITION);
}

/** The total of the shards' counts. */
export function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
