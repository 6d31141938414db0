// The API client's public surface: what commands call, and the options the lower-level
// factories take (tests and benchmarks build clients from these directly).
import type { LiveRule, PatchBody } from '../semantics/model.js';
import type { ScriptQuery, ScriptsPage } from '../scripts/model.js';

/** Environment variables the clients read (docs/behaviour.md, "Configuration and environment"), named in messages. */
export const CONSOLE_URL_VARIABLE = 'BOTRULES_CONSOLE_URL';
export const GATEWAY_URL_VARIABLE = 'BOTRULES_GATEWAY_URL';
export const API_TOKEN_VARIABLE = 'BOTRULES_API_TOKEN';
export const FALLBACK_TOKEN_VARIABLE = 'BOTRULES_TOKEN';
export const EXTRA_CA_VARIABLE = 'NODE_EXTRA_CA_CERTS';
export const TIMEOUT_VARIABLE = 'BOTRULES_TIMEOUT';

/** One request to a host, as the clients describe it (src/api/http.ts sends it). */
export interface ApiRequest {
  /** POST and DELETE only for the GitHub API (src/api/github-client.ts); they are never retried. */
  method: 'GET' | 'PATCH' | 'POST' | 'DELETE';
  /** Path below the base URL, without a leading slash. */
  path: string;
  searchParams?: Record<string, string>;
  json?: unknown;
  /** What the tool is doing, for messages: "listing rules of app default". */
  operation: string;
  /** A sentence for statuses that mean something specific to this operation. */
  explainStatus?: (status: number, serverMessage: string | undefined) => string | undefined;
}

/** The custom-rule operations of one application (docs/service-api.md, "List custom rules", "Update a rule"). */
export interface RulesApi {
  /** Every custom rule, validated, normalised and sorted by priority. */
  listRules(): Promise<LiveRule[]>;
  /**
   * Updates the fields in `body` of one rule and returns the rule as the service answered.
   * `priority` is the one sent when the answer does not carry it, and -1 when neither says.
   */
  patchRule(ruleId: string, body: PatchBody): Promise<LiveRule>;
  /**
   * Creates a rule from `body` (the whole rule and the `priority` to insert it at; config
   * `service.create`) and returns it as the service answered, with its new ruleId. Absent on
   * sources that cannot change anything (a live snapshot).
   */
  createRule?(body: PatchBody): Promise<LiveRule>;
  /** Deletes the rule `ruleId` (config `service.delete`); absent where nothing can be changed. */
  deleteRule?(ruleId: string): Promise<void>;
}

/** The script-inventory query (docs/service-api.md, "Get scripts"). */
export interface ScriptsApi {
  /** One page of the inventory; every query field is sent explicitly. */
  listScripts(query: ScriptQuery): Promise<ScriptsPage>;
}

/** How hard to try again after a retryable failure. */
export interface RetryPolicy {
  /** Retries after the first attempt (so `limit + 1` attempts in all). */
  limit: number;
  /** Backoff before retry n is random in [0, min(maxDelayMs, baseDelayMs * 2^(n-1))] (full jitter). */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A server's Retry-After is honoured up to this long. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { limit: 4, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 30_000 };

/** What both client factories need to reach one host. */
export interface HostOptions {
  /** Base URL of the host; must be https. */
  baseUrl: string;
  /** The environment variable the base URL came from, named in messages. */
  urlVariable: string;
  /** The bearer token. Never logged, never part of an error. */
  token: string;
  /** The environment variable the token came from, named in messages. */
  tokenVariable: string;
  /** Extra trusted CA certificates (PEM), added to Node's bundled roots. */
  extraCaPem?: string;
  /** Receives one line per request (wired to --verbose). */
  debug?: (line: string) => void;
  /** Receives one short line per retry, always shown: waiting is never silent. */
  notice?: (line: string) => void;
  /** Answers larger than this are refused; MAX_RESPONSE_BYTES unless given. */
  maxResponseBytes?: number;
  retry?: Partial<RetryPolicy>;
  /** Limit for each attempt, from connecting to the last byte of the answer. */
  timeoutMs?: number;
}

export interface RulesClientOptions extends HostOptions {
  /** The app whose token this is, named in messages. */
  app: string;
}

/** `tokenVariable` is BOTRULES_TOKEN when BOTRULES_API_TOKEN was unset (docs/behaviour.md, "Configuration and environment"). */
export type ScriptsClientOptions = HostOptions;
