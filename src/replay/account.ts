// What both engines do with each request once it is decided (docs/replay.md, "The report"):
// the tallies of the report, the check of fields its line lacks, and the comparison with
// production's recorded decision. One function, so the engines cannot drift apart.
import type { Decision } from '../evaluate/evaluate.js';
import type { AgreementTally } from './agreement.js';
import type { Carriage } from './coverage.js';
import type { MissingFieldCheck } from './missing.js';
import type { RecordedDecision } from './presets.js';
import type { ReplayExample, ReplayTally } from './tally.js';
import type { LiveRule } from '../semantics/model.js';

export interface Tallies {
  /** live → declared. */
  main: ReplayTally;
  /** declared → shadow rules active, when there are shadow rules (a third set). */
  shadow: ReplayTally;
  /** Which requests' outcomes hang on a field the log lacks (rules the change touches). */
  missing: MissingFieldCheck;
  /** The same over every live rule, for the comparison with production's decisions. */
  liveMissing: MissingFieldCheck;
  /** Production's recorded decisions against the live rules' (Data Export logs). */
  agreement: AgreementTally;
}

/** A request read from a log, as the accounting needs it. */
export interface ReadRequest {
  example: ReplayExample;
  carriage: Carriage;
  decision?: RecordedDecision | undefined;
}

/** A line carrying no request field: a mapping problem, never an empty request decided. */
export function accountEmpty({ example, decision }: ReadRequest, tallies: Tallies): void {
  tallies.main.undecidedByMissing(example, []);
  if (decision !== undefined) tallies.agreement.add(example, decision, undefined);
}

/** A decided request, under the live, the declared and (with shadow rules) the shadow-active set. */
export function accountDecided({ example, carriage, decision }: ReadRequest, decisions: readonly Decision<LiveRule>[], tallies: Tallies): void {
  const [underLive, underDeclared, underShadowActive] = decisions as [Decision<LiveRule>, Decision<LiveRule>, Decision<LiveRule>?];
  const { request } = example;
  if (decision !== undefined) {
    // Compared with production only where the live outcome does not hang on a lacking field.
    const known = tallies.liveMissing.dependsOn(request, carriage, [underLive]).length === 0;
    tallies.agreement.add(example, decision, known ? underLive : undefined);
  }
  const lacking = tallies.missing.dependsOn(request, carriage, [underLive, underDeclared]);
  if (lacking.length > 0) tallies.main.undecidedByMissing(example, lacking);
  else tallies.main.add(example, underLive, underDeclared);
  if (underShadowActive !== undefined) tallies.shadow.add(example, underDeclared, underShadowActive);
}

/**
 * Whether a request needs accountDecided request by request: it records production's decision,
 * or lacks a field some touched rule reads. Any other request only adds to the transition of
 * its decisions, which an engine may count in groups (ReplayTally.addGroup).
 */
export function needsOwnAccount(request: ReadRequest, tallies: Tallies): boolean {
  return request.decision !== undefined || tallies.missing.mayDependOn(request.example.request, request.carriage);
}
