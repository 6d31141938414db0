// The classes of a field's values (docs/replay.md, "Engines"): a leaf's verdict depends only on
// the value of the field it reads, so the DuckDB engine hands each field's distinct values to
// this module once. Each value is read as the js engine's reader reads it (recordRequest, then
// normalised and masked: the same functions, so masking, number forms and a path's query string
// are the js reader's by construction), and every leaf on its field is asked about it. Values
// whose verdicts and accounting agree share a class; each tuple of classes is then decided once,
// from the verdicts each class keeps (class-decisions.ts). A value the js reader would read
// otherwise than DuckDB handed it over (a number DuckDB writes in another form, an object where
// text belongs) is odd: its records are read again by the js reader.
import type { TestRequest } from '../../evaluate/request.js';
import type { NormalRule } from '../../semantics/model.js';
import type { ProgramLeaf, RuleProgram } from '../../semantics/program.js';
import { normaliseRequest, unusableForm, MAP_FIELDS, TEXT_FIELDS, type RequestField, type TextField } from '../coverage.js';
import { recordRequest } from '../formats.js';
import { redactRequest } from '../redact.js';
import { FieldVerdicts, type Mark } from './field-verdicts.js';

/** What the accounting needs of a class, and the request part its first value makes. */
export interface ValueClass {
  present: boolean;
  /** Records holding it are read again by the js reader. */
  odd: boolean;
  /** Carried in a form no rule can match (coverage.ts unusableForm). */
  unusable: boolean;
  /** Lacking for a rule the change touches (odd as well: the js engine accounts such requests one by one). */
  lacking: boolean;
  part: TestRequest;
}

/** Class 0 of every field: not carried; class 1: odd. */
export const ABSENT = 0;
export const ODD = 1;

/**
 * A text DuckDB hands over as it read it (VARCHAR) that JavaScript's String() might write
 * otherwise, or that is no text: an object or a list (as its JSON text), a number with a
 * fraction, an exponent, leading zeros, -0, more digits than a double keeps, NaN or Infinity
 * (DuckDB reads them; JSON.parse does not). Strings of that look are odd too: never wrong.
 */
const TEXT_NOT_AS_JS = /^(?:[[{].*|-0|-?0[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|-?[0-9]+\.[0-9]+(?:[eE][+-]?[0-9]+)?|-?[0-9]+[eE][+-]?[0-9]+|-?[0-9]{16,}|-?(?:nan|inf|infinity))$/is;

export class FieldClasses {
  readonly classes: ValueClass[];
  private readonly keys = new Map<string, number>();
  private readonly verdicts: FieldVerdicts;
  /** Per class made here, the verdicts found on its first value (changes): not asked again when its groups are decided. */
  private readonly changed: Map<number, Mark>[] = [];

  constructor(private readonly field: RequestField, leaves: readonly ProgramLeaf[], private readonly touched: boolean) {
    this.verdicts = new FieldVerdicts(leaves);
    this.classes = [
      { present: false, odd: false, unusable: false, lacking: touched && field !== 'custom' && field !== 'query', part: {} },
      { present: true, odd: true, unusable: false, lacking: false, part: {} },
    ];
  }

  /** The verdicts of the class's value that may differ from those where the field is absent, by the field's leaves' places. */
  changes(id: number): ReadonlyMap<number, Mark> {
    return this.changed[id] ?? this.verdicts.changes(this.classes[id]?.part ?? {});
  }

  /** The class of a request part the js reader made (undefined: odd). */
  classOf(part: TestRequest | undefined): number {
    if (part === undefined) return ODD;
    const value = this.field === 'headers' || this.field === 'query' || this.field === 'custom' ? part[this.field] : part[this.field];
    if (value === undefined) return ABSENT;
    const unusable = typeof value === 'string' && unusableForm(this.field as TextField, value);
    const changes = this.verdicts.changes(part);
    const key = `${unusable ? 'x' : 'o'}${this.verdicts.keyOf(changes)}`;
    let id = this.keys.get(key);
    if (id === undefined) {
      id = this.classes.push({ present: true, odd: false, unusable, lacking: this.touched && unusable, part }) - 1;
      this.keys.set(key, id);
      this.changed[id] = changes;
    }
    return id;
  }
}

export interface ClassOptions {
  isSecret: (name: string) => boolean;
  /** Fields a rule the change touches reads (missing.ts fieldsRead). */
  fieldsRead: ReadonlySet<RequestField>;
}

/**
 * How the js reader reads one field's value as DuckDB hands it over (a text; for `query`, with
 * the path whose query string joins it): the record it would have read, or undefined where
 * DuckDB's text may not be what the js reader saw (odd).
 */
export interface ValueReader {
  record(field: RequestField, raw: string | null, path: string | null): Record<string, unknown> | undefined;
  /** The record as the js reader's parser reads it (recordRequest for NDJSON; the Parquet plan's reader). */
  request(record: Record<string, unknown>): ReturnType<typeof recordRequest>;
  /** A whole row of a Parquet file from its fields' texts (undefined: a text that is not what the js reader saw). */
  row?(texts: ReadonlyMap<RequestField, string | null>): Record<string, unknown> | undefined;
}

/** An NDJSON log read by read_json: text fields as VARCHAR, maps as the JSON DuckDB writes again. */
export const NDJSON_VALUES: ValueReader = {
  record(field, raw, path) {
    const record: Record<string, unknown> = {};
    if (raw !== null) {
      const value = field === 'headers' || field === 'query' || field === 'custom' ? exactJson(raw) : TEXT_NOT_AS_JS.test(raw) ? undefined : raw;
      if (value === undefined) return undefined;
      record[field] = value;
    }
    if (path !== null) {
      if (TEXT_NOT_AS_JS.test(path)) return undefined;
      record['path'] = path;
    }
    return record;
  },
  request: (record) => recordRequest(record),
};

/** Every field's classes, for one rule program. */
export class ValueClasses {
  readonly fields = new Map<RequestField, FieldClasses>();

  constructor(program: RuleProgram<NormalRule>, private readonly options: ClassOptions, private readonly reader: ValueReader = NDJSON_VALUES) {
    for (const field of [...TEXT_FIELDS, ...MAP_FIELDS]) {
      this.fields.set(field, new FieldClasses(field, program.leaves.filter((leaf) => leaf.field === field), options.fieldsRead.has(field)));
    }
  }

  of(field: RequestField): FieldClasses {
    return this.fields.get(field) as FieldClasses;
  }

  /** A field's value as DuckDB read it, and for `query` the path whose query string joins it: its class. */
  value(field: RequestField, raw: string | null, path: string | null = null): number {
    const record = this.reader.record(field, raw, path);
    return this.of(field).classOf(record === undefined ? undefined : this.read(record, field));
  }

  /** The class of a text the js reader would hold as it is (an IPv4 address the engine made). */
  plain(field: TextField, text: string): number {
    return this.of(field).classOf(this.read({ [field]: text }, field, recordRequest));
  }

  /** The request the js reader makes of the record, normalised and masked; undefined where it skips the record. */
  private read(record: Record<string, unknown>, field: RequestField, parse = this.reader.request): TestRequest | undefined {
    const result = parse(record);
    if ('skip' in result) return undefined;
    const request = redactRequest(normaliseRequest(result.request), this.options.isSecret);
    const value = request[field];
    return value === undefined ? {} : { [field]: value };
  }
}

/**
 * JSON DuckDB wrote again: strings, true, false, null and integers a double holds exactly read
 * back as the original did; any other number (DuckDB may write 1e3 as 1000.0) makes it odd.
 */
export function exactJson(raw: string): unknown {
  let exact = true;
  try {
    const parsed: unknown = JSON.parse(raw, (_key, value: unknown) => {
      if (typeof value === 'number' && !Number.isSafeInteger(value)) exact = false;
      return value;
    });
    return exact ? parsed : undefined;
  } catch {
    return undefined;
  }
}
