// The exhaustive behaviour diff of two rule sets (docs/behaviour.md, "Exhaustive behaviour
// diff"): every class of requests whose deciding rule or actions differ, grouped by the change
// of outcome ("hardBlock → blockWithChallenge") and ordered risk first: what now allows, then
// what no longer blocks or challenges, then a different rule with the same protection, then
// what is now stricter.
import type { EvaluationOptions } from '../evaluate/leaf.js';
import type { AppBehaviourDiff, BehaviourRisk, ExampleRequest } from './outcomes.js';
import type { NormalRule } from '../semantics/model.js';
import type { DecidedOutcome, RegionOutcome } from './entries.js';
import { regionsWhere, type Region, type RegionSearch } from './regions.js';
import type { RefutationStore } from './refutations.js';

/** Ordered: the first is the riskiest (docs/behaviour.md, "Exhaustive behaviour diff"). */
export const RISKS: readonly BehaviourRisk[] = ['allows', 'weakens', 'other-rule', 'strengthens'];

/** The requests whose outcome changes the same way. */
export interface RegionOutcomeChange {
  risk: BehaviourRisk;
  before: DecidedOutcome;
  after: DecidedOutcome;
  regions: Region[];
}

export interface BehaviourDiff {
  /** Risk first, then by how many classes, then by the rules' names. */
  changes: RegionOutcomeChange[];
  /** Parts not decided exactly: the diff says nothing about them. */
  unchecked: RegionSearch['unchecked'];
}

export interface DiffOptions {
  deadline?: number;
  onProgress?: (done: number, total: number) => void;
  evaluation?: EvaluationOptions;
  /** The command's refutations, shared with its transition check (refutations.ts). */
  refutations?: RefutationStore;
}

/** `before` and `after` each in priority order. */
export function behaviourDiff(before: readonly NormalRule[], after: readonly NormalRule[], options: DiffOptions = {}): BehaviourDiff {
  const search = regionsWhere([before, after], ([was, will]) => !sameOutcome(was as RegionOutcome, will as RegionOutcome), options);
  const groups = new Map<string, RegionOutcomeChange>();
  for (const region of search.regions) {
    const [was, will] = region.outcomes as [DecidedOutcome, DecidedOutcome];
    const key = JSON.stringify([was, will]);
    const group = groups.get(key) ?? { risk: riskOf(was, will), before: was, after: will, regions: [] };
    group.regions.push(region);
    groups.set(key, group);
  }
  const changes = [...groups.values()].sort(
    (a, b) => RISKS.indexOf(a.risk) - RISKS.indexOf(b.risk) || b.regions.length - a.regions.length || label(a).localeCompare(label(b)),
  );
  for (const change of changes) change.regions.sort((a, b) => a.constraints.length - b.constraints.length || a.description.localeCompare(b.description));
  return { changes, unchecked: search.unchecked };
}

export function sameOutcome(a: RegionOutcome, b: RegionOutcome): boolean {
  if ('undecided' in a || 'undecided' in b) return 'undecided' in a && 'undecided' in b && a.undecided === b.undecided;
  return a.rule === b.rule && [...a.actions].sort().join() === [...b.actions].sort().join();
}

/**
 * How strongly an outcome protects: a hard block 3, a challenge 2, no custom rule 1 (the
 * service's other defences apply), allow 0; a rule with several actions counts its strongest.
 */
export function protection(outcome: DecidedOutcome): number {
  if (outcome.actions.includes('hardBlock')) return 3;
  if (outcome.actions.includes('blockWithChallenge')) return 2;
  if (outcome.actions.includes('allow')) return 0;
  return 1;
}

export function riskOf(before: DecidedOutcome, after: DecidedOutcome): BehaviourRisk {
  const was = protection(before);
  const will = protection(after);
  if (will === 0 && was > 0) return 'allows';
  if (will < was) return 'weakens';
  return will === was ? 'other-rule' : 'strengthens';
}

function label(change: RegionOutcomeChange): string {
  return `${change.before.rule ?? ''}\u0000${change.after.rule ?? ''}`;
}

/** The diff as plan data (plan/types.ts): each class by its description and witness. */
export function appBehaviourDiff(app: string, diff: BehaviourDiff): AppBehaviourDiff {
  return {
    app,
    changes: diff.changes.map((change) => ({
      risk: change.risk,
      before: { rule: change.before.rule, actions: [...change.before.actions] },
      after: { rule: change.after.rule, actions: [...change.after.actions] },
      classes: change.regions.map((region) => ({ description: region.description, example: region.witness as ExampleRequest })),
    })),
    unchecked: diff.unchecked.map((part) => ({ reason: part.reason, rules: [...part.rules] })),
  };
}
