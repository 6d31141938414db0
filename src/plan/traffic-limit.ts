// The safety limit measured in traffic (docs/replay.md, "A limit in traffic"): beside the count
// of PATCH requests (safety.ts), the share of replayed requests that had no blocking outcome
// under the live rules and would be blocked or challenged once the plan has run. octoDNS's
// "too many changes" turned into "too many customers affected": above `maxNewlyBlocked`
// (botrules.yaml, per app or for all), plan warns and apply refuses without --force.

/** A plan's verdict on replayed traffic, for one app: what the safety limit compares. */
export interface TrafficVerdict {
  /** The logs replayed, as named. */
  logs: string[];
  /** Requests decided under both rule sets. */
  evaluated: number;
  /** Of those, the ones with no outcome or allow before, and challenge or block after. */
  newlyBlocked: number;
  /** The rules that would block or challenge them, most requests first (at most RULES_KEPT). */
  rules: { name: string; count: number }[];
  /** A few of them, each `FILE:LINE {request}` (secrets masked when the log was read). */
  examples: string[];
}

/** The rules and examples a verdict keeps (a saved plan carries them). */
export const RULES_KEPT = 5;
export const EXAMPLES_KEPT = 3;

/** Without a configured limit: more than 1 % of the replayed requests newly blocked needs --force. */
const DEFAULT_MAX_NEWLY_BLOCKED = 0.01;

/** One limit for every app, or a limit per app name (config); each a share, 0..1. */
export type MaxNewlyBlocked = number | Readonly<Record<string, number | undefined>>;

/** A traffic limit exceeded, as data: the verdict and the limit it exceeds (configured, or the default). */
export interface TrafficExcess {
  app: string;
  verdict: TrafficVerdict;
  limit: number;
  configured: boolean;
}

/** How `app`'s replayed traffic exceeds its limit, or undefined (no verdict, nothing replayed, within it). */
export function trafficExcessOf(app: string, verdict: TrafficVerdict | undefined, limits: MaxNewlyBlocked | undefined): TrafficExcess | undefined {
  if (verdict === undefined || verdict.evaluated === 0) return undefined;
  const configured = typeof limits === 'number' ? limits : limits?.[app];
  const limit = configured ?? DEFAULT_MAX_NEWLY_BLOCKED;
  if (verdict.newlyBlocked / verdict.evaluated <= limit) return undefined;
  return { app, verdict, limit, configured: configured !== undefined };
}
