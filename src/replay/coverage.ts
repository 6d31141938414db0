// Which request fields a log carries (docs/replay.md, "Fields the log lacks"): per field, the
// lines that carry it, the lines that carry it in a form no rule can match, and the lines that
// carry none of the fields at all (a mapping problem, never an empty request "decided"). The
// counts are taken from parsed requests, so any engine that parses the same lines can supply
// the same numbers. Values are normalised here as the service compares them.
import { isIP } from 'node:net';
import type { TestRequest } from '../evaluate/request.js';
import { REQUEST_FIELDS, TEXT_FIELDS, type RequestField, type TextField } from '../semantics/fields.js';

// The request fields are the rule semantics' (semantics/fields.ts): the text fields, then the maps.
export { MAP_FIELDS, REQUEST_FIELDS, TEXT_FIELDS, type MapField, type RequestField, type TextField } from '../semantics/fields.js';

/**
 * What a format can tell about a request beyond its values: the header names it records when
 * it records only some (an access log's Referer and User-Agent), so a rule on another header
 * is known to read a field the log lacks rather than a header the request did not send.
 */
export interface Carriage {
  partialHeaders?: readonly string[];
  /**
   * The format records no custom parameters (an access log, a CDN log, a HAR): a rule on one
   * reads a field the log lacks. Where a format can record them (NDJSON, CSV, the Data Export),
   * a line without any means the request had none.
   */
  noCustom?: true;
}

/** Values as the service compares them: countries upper-case, an ASN as its number (`AS13335` → `13335`). */
export function normaliseRequest(request: TestRequest): TestRequest {
  if (request.country !== undefined) request.country = request.country.trim().toUpperCase();
  if (request.asn !== undefined) request.asn = request.asn.trim().replace(/^AS(?=\d+$)/i, '');
  return request;
}

/** Whether a value is in a form some rule can match; others are carried, but as if lacking. */
const USABLE_FORM: Partial<Record<TextField, (value: string) => boolean>> = {
  country: (value) => /^[A-Z][A-Z0-9]$/.test(value),
  asn: (value) => /^\d+$/.test(value),
  ip: (value) => isIP(value) !== 0,
};

/** A field's value that no rule can match, with an example for the report. */
export function unusableForm(field: TextField, value: string): boolean {
  const usable = USABLE_FORM[field];
  return usable !== undefined && !usable(value);
}

/**
 * Whether a request carries the field as far as rules can tell (query comes with the path: a
 * target without `?` has none; custom parameters wherever the format records them).
 */
export function carries(request: TestRequest, field: RequestField, carriage: Carriage = {}): boolean {
  switch (field) {
    case 'headers': return request.headers !== undefined && carriage.partialHeaders === undefined;
    case 'query': return request.query !== undefined || request.path !== undefined;
    case 'custom': return carriage.noCustom !== true;
    default: return request[field] !== undefined;
  }
}

/** The fields a request lacks for rules to read them: not carried, or carried in an unusable form. */
export function lackedFields(request: TestRequest, carriage: Carriage = {}): Set<RequestField> {
  const lacked = new Set<RequestField>();
  for (const field of REQUEST_FIELDS) {
    if (!carries(request, field, carriage)) lacked.add(field);
  }
  for (const field of TEXT_FIELDS) {
    const value = request[field];
    if (value !== undefined && unusableForm(field, value)) lacked.add(field);
  }
  return lacked;
}

/** The coverage part of the report: counts of lines per field (additive to the report's JSON). */
export interface FieldCoverage {
  /** Per request field, how many evaluated lines carry it (`headers` only when the format records all headers; `custom` when the line has some). */
  carried: Record<RequestField, number>;
  /** Header names a format records when it records only some (access logs, CDN logs); absent when all. */
  partialHeaders?: string[];
  /** Per field, lines that carry it in a form no rule can match (a country that is not a code, an ASN that is not a number), with a first example. */
  unusable: { field: TextField; count: number; example: string; first: { file: string; line: number } }[];
  /** Lines carrying none of the request fields: a mapping problem. */
  empty: { count: number; keys: string[]; first?: { file: string; line: number } };
}

/** How many keys of an unmapped line are shown. */
const KEYS_SHOWN = 20;

export class FieldCounter {
  private readonly carried = Object.fromEntries(REQUEST_FIELDS.map((field) => [field, 0])) as Record<RequestField, number>;
  private partialHeaders: string[] | undefined;
  private readonly unusable = new Map<TextField, FieldCoverage['unusable'][number]>();
  private readonly empty: FieldCoverage['empty'] = { count: 0, keys: [] };

  /** Counts one parsed request; returns whether it carries any request field at all. */
  count(request: TestRequest, where: { file: string; line: number }, carriage: Carriage = {}, keys?: readonly string[]): boolean {
    let any = false;
    for (const field of REQUEST_FIELDS) {
      // Custom parameters count where a line has some; the others where rules can read them.
      if (field === 'custom' ? request.custom !== undefined : carries(request, field, carriage)) {
        this.carried[field] += 1;
        any = true;
      }
    }
    if (carriage.partialHeaders !== undefined) {
      this.partialHeaders ??= [...carriage.partialHeaders];
      if (request.headers !== undefined) any = true;
    }
    for (const field of TEXT_FIELDS) {
      const value = request[field];
      if (value === undefined || !unusableForm(field, value)) continue;
      const known = this.unusable.get(field);
      if (known === undefined) this.unusable.set(field, { field, count: 1, example: value.slice(0, 80), first: { file: where.file, line: where.line } });
      else known.count += 1;
    }
    if (!any) {
      this.empty.count += 1;
      if (this.empty.first === undefined) {
        this.empty.first = { file: where.file, line: where.line };
        this.empty.keys = (keys ?? []).slice(0, KEYS_SHOWN);
      }
    }
    return any;
  }

  /** `count` requests carrying `field` (an engine that counts in groups; custom counts where a line has some). */
  addCarried(field: RequestField, count: number): void {
    this.carried[field] += count;
  }

  /** `count` requests carrying `field` in an unusable form, the first of them at `where` with `value`, in log order among count(). */
  addUnusable(field: TextField, count: number, value: string, where: { file: string; line: number }): void {
    const known = this.unusable.get(field);
    if (known === undefined) this.unusable.set(field, { field, count, example: value.slice(0, 80), first: { file: where.file, line: where.line } });
    else known.count += count;
  }

  coverage(): FieldCoverage {
    return {
      carried: { ...this.carried },
      ...(this.partialHeaders === undefined ? {} : { partialHeaders: [...this.partialHeaders] }),
      unusable: [...this.unusable.values()],
      empty: { ...this.empty, keys: [...this.empty.keys] },
    };
  }
}
