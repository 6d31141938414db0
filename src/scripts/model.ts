// The script inventory's records and query (api.md §2.4, §2.5, §4.3).

export interface ScriptRisk {
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

/** One page request. The tool always sends every field explicitly (contract §6). */
export interface ScriptQuery {
  appId: string[];
  tld: string[];
  /** Epoch milliseconds. */
  from: number;
  /** Epoch milliseconds. */
  to: number;
  skip: number;
  take: number;
}
