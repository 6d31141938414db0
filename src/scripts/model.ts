// The script inventory's records and query (docs/service-api.md, "Script records", "Paging", "Get scripts").

interface ScriptRisk {
  level?: string;
  reason?: string;
}

/** One script record as the gateway returns it; every field is optional on the wire. */
export interface ScriptRecord {
  users_affected_percentage?: number;
  ack?: boolean;
  key?: string;
  id?: string;
  app_id?: string;
  host_domain?: string;
  type?: string;
  vendor?: string;
  first_seen?: string;
  last_seen?: string;
  risk?: ScriptRisk;
  page_types?: string[];
}

export interface Paging {
  previous: string;
  current: string;
  next: string;
  count: number;
}

export interface ScriptsPage {
  paging: Paging;
  data: ScriptRecord[];
}

/** The window and filters of one report, resolved once and sent on every page. */
export interface InventoryQuery {
  appId: string[];
  tld: string[];
  /** Epoch milliseconds. */
  from: number;
  /** Epoch milliseconds. */
  to: number;
}

/** One page request. The tool always sends every field explicitly (docs/behaviour.md, "Script inventory"). */
export interface ScriptQuery extends InventoryQuery {
  skip: number;
  take: number;
}

/** A record as the tool writes it: the wire fields plus the policy's verdict when a policy was used. */
export interface SnapshotRecord extends ScriptRecord {
  /** Present only when the report ran with a policy. */
  approved?: boolean;
  /** The policy entry that approved the record, e.g. `pattern: https://js.stripe.com/*`. */
  approvedBy?: string;
  /** Why a matching entry did not approve it (an expired approval). */
  approvalNote?: string;
}

/** A snapshot's link to the previous snapshot of the same scope (src/scripts/chain.ts). */
export interface ChainLink {
  /** The previous snapshot's takenAt, to name it when it is missing. */
  takenAt: string;
  /** `sha256:…` of the previous snapshot's canonical content. */
  sha256: string;
}

/** The `json` report format (docs/behaviour.md, "Script inventory"): stable and diff-friendly for git. */
export interface Snapshot {
  formatVersion: 1;
  query: {
    appId: string[];
    tld: string[];
    /** ISO 8601, UTC. */
    from: string;
    to: string;
    fromMs: number;
    toMs: number;
  };
  /** ISO 8601, UTC. */
  takenAt: string;
  tool: { name: 'botrules'; version: string };
  /** The policy file the approval marks come from, relative to the working directory. */
  policy?: { file: string };
  count: number;
  /** What went wrong but did not stop the export, e.g. a count that changed while paging. */
  warnings?: string[];
  records: SnapshotRecord[];
  /**
   * The tamper-evident series: the link to the previous snapshot (null: this one starts the
   * chain) and the digest of this snapshot's own canonical content. Absent in snapshots written
   * before the chain existed.
   */
  chain?: {
    previous: ChainLink | null;
    /** How the digests serialise the snapshot: RFC 8785. Absent in chains written before it was recorded (the same text). */
    canonical?: 'rfc8785';
    sha256?: string;
  };
}
