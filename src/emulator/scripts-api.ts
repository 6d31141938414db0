// The script-inventory query (docs/service-api.md, "Get scripts"): filter by app and host, by the time window,
// then page with skip/take. Choices where api.md is silent:
//  - a record is in the window when the period it was seen in, [first_seen, last_seen],
//    overlaps [from, to] (a script first seen last month and still running counts for today);
//  - `take` above the configured maximum is silently lowered to it;
//  - `next` is "" on the last page, as `previous` is on the first;
//  - a host matches a tld when it equals it or is a subdomain of it;
//  - records come in a stable order (by key), so skip/take pages never overlap.
// The filtered, sorted list of a query is kept per inventory (the array is replaced, never
// mutated, when the inventory changes), so paging through 100,000 records costs one sort,
// not one per page.
import type { ScriptQuery, ScriptRecord } from '../scripts/model.js';
import type { ApiAnswer } from './rules-api.js';
import { parseJsonOr } from '../io/json-depth.js';
import { DAY_MS } from '../scripts/time.js';

interface ScriptsQueryOptions {
  gatewayUrl: string;
  maxTake: number;
  now: number;
}

class QueryInvalid extends Error {}

export function listScriptsAnswer(scripts: readonly ScriptRecord[], query: URLSearchParams, options: ScriptsQueryOptions): ApiAnswer {
  let parsed;
  try {
    parsed = parseQuery(query, options);
  } catch (err) {
    if (err instanceof QueryInvalid) return { status: 422, body: { message: err.message } };
    throw err;
  }
  const matching = matchingScripts(scripts, parsed);
  const data = matching.slice(parsed.skip, parsed.skip + parsed.take);
  const link = (skip: number) => pageLink(options.gatewayUrl, query, parsed.take, skip);
  const paging = {
    previous: parsed.skip > 0 ? link(Math.max(0, parsed.skip - parsed.take)) : '',
    current: link(parsed.skip),
    next: parsed.skip + parsed.take < matching.length ? link(parsed.skip + parsed.take) : '',
    count: matching.length,
  };
  return { status: 200, body: { paging, data } };
}

const matchingByInventory = new WeakMap<readonly ScriptRecord[], Map<string, ScriptRecord[]>>();

function matchingScripts(scripts: readonly ScriptRecord[], q: ScriptQuery): ScriptRecord[] {
  let byQuery = matchingByInventory.get(scripts);
  if (!byQuery) matchingByInventory.set(scripts, (byQuery = new Map()));
  const key = JSON.stringify([q.appId, q.tld, q.from, q.to]);
  let matching = byQuery.get(key);
  if (!matching) {
    matching = scripts
      .filter((s) => q.appId.includes(s.app_id ?? '') && q.tld.some((t) => hostMatches(s.host_domain, t)))
      .filter((s) => seenDuring(s, q.from, q.to))
      .sort(byKey);
    byQuery.set(key, matching);
  }
  return matching;
}

/** The query with every default filled in: the same shape the tool sends. */
function parseQuery(query: URLSearchParams, options: ScriptsQueryOptions): ScriptQuery {
  const to = integer(query, 'to', options.now, 0);
  const from = integer(query, 'from', to - DAY_MS, 0);
  if (from > to) throw new QueryInvalid(`from (${from}) must not be after to (${to})`);
  return {
    appId: jsonList(query, 'appId'),
    tld: jsonList(query, 'tld').map((t) => t.toLowerCase()),
    from,
    to,
    skip: integer(query, 'skip', 0, 0),
    take: Math.min(integer(query, 'take', 20, 1), options.maxTake),
  };
}

/** appId and tld are JSON-array text in one query value, e.g. appId=["app-1","app-2"]. */
function jsonList(query: URLSearchParams, name: string): string[] {
  const text = query.get(name);
  if (text === null || text === '') throw new QueryInvalid(`${name} is required: a JSON array of strings, e.g. ${name}=["…"]`);
  const value = parseJsonOr(text, () => undefined);
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string' && v !== '')) {
    throw new QueryInvalid(`${name} must be a JSON array of at least one non-empty string, e.g. ${name}=["…"]`);
  }
  return value as string[];
}

function integer(query: URLSearchParams, name: string, fallback: number, min: number): number {
  const text = query.get(name);
  if (text === null || text === '') return fallback;
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) < min) {
    throw new QueryInvalid(`${name} must be an integer of at least ${min}; got ${JSON.stringify(text)}`);
  }
  return Number(text);
}

function hostMatches(host: string | undefined, tld: string): boolean {
  if (host === undefined) return false;
  const h = host.toLowerCase();
  return h === tld || h.endsWith(`.${tld}`);
}

function seenDuring(s: ScriptRecord, from: number, to: number): boolean {
  const first = s.first_seen === undefined ? NaN : Date.parse(s.first_seen);
  const last = s.last_seen === undefined ? NaN : Date.parse(s.last_seen);
  // A record that misses a timestamp is treated as seen at the one it has; with none, always.
  const start = Number.isNaN(first) ? last : first;
  const end = Number.isNaN(last) ? first : last;
  if (Number.isNaN(start)) return true;
  return start <= to && end >= from;
}

function byKey(a: ScriptRecord, b: ScriptRecord): number {
  const ka = a.key ?? a.id ?? '';
  const kb = b.key ?? b.id ?? '';
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** A full link on the gateway carrying the request's query with `take` and `skip` set. */
function pageLink(gatewayUrl: string, query: URLSearchParams, take: number, skip: number): string {
  const params = new URLSearchParams(query);
  params.set('take', String(take));
  params.set('skip', String(skip));
  return `${gatewayUrl}/v1/scripts?${params.toString()}`;
}
