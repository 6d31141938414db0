// The region search in proportion to the change (changed-parts.ts): each part searched apart,
// its outcomes spread back over the lists given, under the one deadline; a budget that runs out
// in the set-up or before a part is reached names the changed rules left unsearched.
import { changedParts, type ChangedPart } from './changed-parts.js';
import { OUT_OF_TIME, type RegionOptions, type RegionOutcome, type RegionSearch } from './entries.js';
import { eachList, type RuleLists } from './list-delta.js';

type Interesting = (outcomes: readonly RegionOutcome[]) => boolean;
type WholeSearch = (ruleSets: RuleLists, interesting: Interesting, options: RegionOptions) => RegionSearch;

/** Rule names listed per unchecked part, at most (as the whole search lists them). */
const MAX_UNCHECKED_RULES = 20;

export function searchInParts(ruleSets: RuleLists, interesting: Interesting, options: RegionOptions, whole: WholeSearch): RegionSearch {
  const parts = changedParts(ruleSets, interesting, options.deadline);
  if (parts === undefined) return whole(ruleSets, interesting, options);
  const found: RegionSearch = { regions: [], unchecked: [] };
  if (parts === 'late') {
    // As the whole search would say: each list left from its first rule on.
    addUnchecked(found, OUT_OF_TIME, Array.from(eachList(ruleSets), (rules) => rules.find((rule) => rule.status === 'active')?.name).filter((name): name is string => name !== undefined));
    return found;
  }
  const total = parts.reduce((sum, part) => sum + size(part), 0);
  let done = 0;
  for (const [index, part] of parts.entries()) {
    if (options.deadline !== undefined && Date.now() > options.deadline) {
      addUnchecked(found, OUT_OF_TIME, parts.slice(index).flatMap((left) => left.changed));
      break;
    }
    const searched = whole(part.lists, asked(part, interesting), partOptions(options, part, found, (partDone) => options.onProgress?.(done + partDone, total)));
    found.regions.push(...searched.regions.map((region) => ({ ...region, outcomes: spread(part, region.outcomes) })));
    for (const { reason, rules } of searched.unchecked) addUnchecked(found, reason, rules);
    done += size(part);
    options.onProgress?.(done, total);
    if (options.maxRegions !== undefined && found.regions.length >= options.maxRegions) break;
  }
  return found;
}

function partOptions(options: RegionOptions, part: ChangedPart, found: RegionSearch, onProgress: (done: number) => void): RegionOptions {
  const hopeless = options.hopeless;
  return {
    ...options,
    ...(hopeless === undefined ? {} : { hopeless: asked(part, hopeless) }),
    ...(options.maxRegions === undefined ? {} : { maxRegions: options.maxRegions - found.regions.length }),
    ...(options.onProgress === undefined ? {} : { onProgress: (partDone: number) => onProgress(partDone) }),
  };
}

/**
 * `question` asked of a part's outcomes spread over the lists given, in one array refilled per
 * call: the search asks at every step, and a new array per step over hundreds of lists was most
 * of the garbage it made. The predicates read the outcomes and keep none (as changed-parts.ts
 * asks them of one refilled array too).
 */
function asked<T>(part: ChangedPart, question: (outcomes: readonly T[]) => boolean): (outcomes: readonly T[]) => boolean {
  const spreadOut = new Array<T>(part.listOf.length);
  return (outcomes) => {
    for (let i = 0; i < spreadOut.length; i++) spreadOut[i] = outcomes[part.listOf[i] as number] as T;
    return question(spreadOut);
  };
}

/** Outcomes per list of the part → outcomes per list given. */
function spread<T>(part: ChangedPart, outcomes: readonly T[]): T[] {
  return part.listOf.map((index) => outcomes[index] as T);
}

function size(part: ChangedPart): number {
  return part.lists.reduce((sum, list) => sum + list.length, 0);
}

function addUnchecked(found: RegionSearch, reason: string, rules: readonly string[]): void {
  let part = found.unchecked.find((known) => known.reason === reason);
  if (part === undefined) found.unchecked.push((part = { reason, rules: [] }));
  for (const rule of rules) if (part.rules.length < MAX_UNCHECKED_RULES && !part.rules.includes(rule)) part.rules.push(rule);
}
