// Production's own decisions (docs/replay.md, "Production's own decisions"): where a log records
// the decision the service took for each request (the Data Export's `type`, `filter_origin`,
// `filter_id`), the live rules evaluated as docs/evaluation.md assumes are compared with it.
// Agreement is a share of the requests compared; disagreements are grouped by rule and
// direction with examples; requests the service decided by something other than a custom rule
// are kept apart, never counted as agreement or disagreement.
import type { Decision } from '../evaluate/evaluate.js';
import type { LiveRule } from '../semantics/model.js';
import type { RecordedDecision } from './presets.js';
import { BLOCKING_OUTCOMES, EXAMPLES_PER_TRANSITION, outcomeOf, type Disagreement, type DisagreementDirection, type ProductionAgreement, type ReplayExample } from './tally.js';

/**
 * Decision types that stop a request: the Data Export writes `block` and `captcha`; other logs
 * named with `replay.decision` write `challenge`, `deny`, `managed_challenge`, `js_challenge`.
 */
const BLOCKING_TYPES: ReadonlySet<string> = new Set(['block', 'captcha', 'challenge', 'hardblock', 'deny', 'managed_challenge', 'js_challenge']);

/**
 * Groups of disagreement kept by rule: a log names production's filter ids, as many as it likes,
 * and one group each made 300,000 distinct ids cost 1 GB and a 135 MB report. Past this many,
 * a disagreement of a rule not yet grouped is counted in one group of other rules per direction.
 */
export const MAX_DISAGREEMENT_GROUPS = 1_000;

/** A filter id is shown up to this many characters (the Data Export's are short). */
const MAX_FILTER_ID_CHARS = 64;

export class AgreementTally {
  private recorded = 0;
  private compared = 0;
  private agreed = 0;
  private byService = 0;
  private undecided = 0;
  private simulated = 0;
  private readonly groups = new Map<string, Disagreement>();

  constructor(private readonly liveById: ReadonlyMap<string, LiveRule>) {}

  /** One request: production's recorded decision and our decision under the live rules (undefined when undecided). */
  add(example: ReplayExample, recorded: RecordedDecision, ours: Decision<LiveRule> | undefined): void {
    this.recorded += 1;
    const productionBlocks = BLOCKING_TYPES.has(recorded.type.toLowerCase());
    if (productionBlocks && recorded.simulatedBlock) this.simulated += 1;
    if (productionBlocks && recorded.origin !== undefined && recorded.origin.toLowerCase() !== 'customer') {
      this.byService += 1;
      return;
    }
    const outcome = ours === undefined ? 'undecided' : outcomeOf(ours);
    if (ours === undefined || outcome === 'undecided') {
      this.undecided += 1;
      return;
    }
    this.compared += 1;
    const weBlock = BLOCKING_OUTCOMES.has(outcome);
    if (weBlock === productionBlocks) {
      this.agreed += 1;
      return;
    }
    const direction: DisagreementDirection = weBlock ? 'we-block-production-allowed' : 'production-blocked-we-allow';
    const rule = weBlock ? ours.rule?.name : this.productionRule(recorded.filterId);
    let key = `${direction}\u0000${rule ?? ''}`;
    let group = this.groups.get(key);
    if (group === undefined && this.groups.size >= MAX_DISAGREEMENT_GROUPS) {
      key = `${direction}\u0000\u0000other rules`;
      group = this.groups.get(key);
      if (group === undefined) this.groups.set(key, group = { direction, rule: undefined, otherRules: true, count: 0, examples: [] });
    }
    if (group === undefined) this.groups.set(key, group = { direction, rule, count: 0, examples: [] });
    group.count += 1;
    if (group.examples.length < EXAMPLES_PER_TRANSITION) group.examples.push(example);
  }

  private productionRule(filterId: string | undefined): string | undefined {
    if (filterId === undefined) return undefined;
    const named = this.liveById.get(filterId)?.name;
    if (named !== undefined) return named;
    return filterId.length <= MAX_FILTER_ID_CHARS ? `filter ${filterId}` : `filter ${filterId.slice(0, MAX_FILTER_ID_CHARS)}… (${filterId.length} characters)`;
  }

  /** The part of the report; undefined when no line recorded a decision. */
  report(): ProductionAgreement | undefined {
    if (this.recorded === 0) return undefined;
    return {
      recorded: this.recorded, compared: this.compared, agreed: this.agreed,
      agreement: this.compared === 0 ? 1 : this.agreed / this.compared,
      disagreements: [...this.groups.values()].sort(compareDisagreements),
      byService: this.byService, undecided: this.undecided, simulated: this.simulated,
    };
  }
}

/**
 * Largest first; as large by direction, then by rule (the other rules' group last), so shards
 * merge to one replay's order (replay merge).
 */
export function compareDisagreements(a: Disagreement, b: Disagreement): number {
  const key = (group: Disagreement) => `${group.direction}\u0000${group.otherRules === true ? '\uffff' : group.rule ?? ''}`;
  return b.count - a.count || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
}

/** Above this share of disagreement, plan --replay warns (botrules.yaml `replay.maxDisagreement`). */
const DEFAULT_MAX_DISAGREEMENT = 0.02;

/** The warning when the live rules disagree with production more than the limit allows, or undefined. */
export function disagreementWarning(production: ProductionAgreement, limit: number | undefined): string | undefined {
  const max = limit ?? DEFAULT_MAX_DISAGREEMENT;
  if (production.compared === 0) return undefined;
  const share = 1 - production.agreement;
  if (share <= max) return undefined;
  const percent = (value: number) => `${Number((value * 100).toFixed(1))}%`;
  return `the live rules, evaluated as docs/evaluation.md assumes, disagree with production's recorded decisions on ${production.compared - production.agreed} ` +
    `of the ${production.compared} requests compared (${percent(share)}), more than ${limit === undefined ? `the default replay.maxDisagreement of ${percent(max)}` : `replay.maxDisagreement ${percent(max)}`} allows: ` +
    'the model this review relies on does not match production (see the replay report\'s disagreements)';
}
