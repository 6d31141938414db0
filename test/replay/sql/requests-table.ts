// A table of request fields as `replay --emit-sql` reads it (docs/replay.md, "Where the traffic
// lives"), for DuckDB in tests: one NDJSON row per request, header names lower-case (the first
// spelling of a name wins, as the evaluator reads it), read with the column types the docs give.
import type { TestRequest } from '../../../src/evaluate/request.js';

export const TABLE_COLUMNS = "{path: 'VARCHAR', method: 'VARCHAR', userAgent: 'VARCHAR', ip: 'VARCHAR', asn: 'VARCHAR', country: 'VARCHAR', domain: 'VARCHAR', deviceType: 'VARCHAR', headers: 'MAP(VARCHAR, VARCHAR)', query: 'MAP(VARCHAR, VARCHAR)', custom: 'MAP(VARCHAR, VARCHAR)'}";

export function requestRows(requests: readonly TestRequest[]): string {
  return requests.map((request) => {
    const row: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(request)) {
      if (typeof value === 'string' || value === undefined) {
        row[field] = value;
        continue;
      }
      const map = Object.create(null) as Record<string, string>;
      for (const [name, text] of Object.entries(value as Record<string, string>)) {
        const key = field === 'headers' ? name.toLowerCase() : name;
        map[key] ??= text;
      }
      row[field] = map;
    }
    return JSON.stringify(row);
  }).join('\n');
}
