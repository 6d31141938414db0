// The DuckDB engine reading a log itself (docs/replay.md, "Engines"): an NDJSON log (gzip too)
// in the plain `ndjson` format is read and counted inside DuckDB by classes of values
// (replay/duckdb/class-read.ts); only the groups of records alike come back, and each is decided
// once here, from what its classes settle (replay/duckdb/class-decisions.ts). The few records the
// report shows and the records DuckDB cannot read as JavaScript does ("odd") are found by
// numbering the log's start only as far as they lie (replay/duckdb/first-records.ts), read again
// by the js reader, and the examples are decided again: any difference, any DuckDB error, too many
// odd records or a gzip file the js reader refuses, and the file is read by the js reader
// instead (the caller), so the report is always the js engine's.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Decision } from '../evaluate/evaluate.js';
import { ProgramVerdicts } from '../evaluate/program-verdicts.js';
import { accountDecided, accountEmpty, type Tallies } from '../replay/account.js';
import type { CompiledRuleSets } from '../replay/compiled.js';
import { carries, MAP_FIELDS, normaliseRequest, TEXT_FIELDS, unusableForm, type RequestField, type TextField } from '../replay/coverage.js';
import { readLog, type LogLine, type TrafficReadOptions } from '../replay/read.js';
import { redactRequest, secretNameTest } from '../replay/redact.js';
import { EXAMPLES_PER_TRANSITION, outcomeOf, type ReplayExample } from '../replay/tally.js';
import { CLASS_FIELDS, MAX_ODD_RECORDS } from '../replay/duckdb/class-query.js';
import { ClassDecisions } from '../replay/duckdb/class-decisions.js';
import type { ClassGroup } from '../replay/duckdb/class-read.js';
import { numberUntilFound, wantedFound, type Wanted } from '../replay/duckdb/first-records.js';
import type { DuckDbDecider } from '../replay/duckdb/decider.js';
import type { ValueClasses, ValueReader } from '../replay/duckdb/value-classes.js';
import type { LiveRule } from '../semantics/model.js';
import { nativeSource } from './replay-duckdb-files.js';

export interface NativeContext {
  decider: DuckDbDecider;
  /** Each set's decision for a decision number. */
  decisions: ((code: number) => Decision<LiveRule>)[];
  tallies: Tallies;
  /** The js engine's program, compiled when first needed. */
  js: () => CompiledRuleSets<LiveRule>;
  codeOf: (decision: Decision<LiveRule>) => number;
  /** Adds the events of a set pair's groups (replay-duckdb.ts), for the main and the shadow tally alike. */
  pairEvents: (groups: readonly { codes: number[]; count: number; firsts: number[] }[], exampleAt: (row: number) => ReplayExample, events: NativeEvent[]) => void;
}

/** The fields in the order of the presence bits of a group. */
const PRESENCE_ORDER: readonly RequestField[] = [...TEXT_FIELDS, ...MAP_FIELDS];
/** The fields whose unusable forms are counted, in the order of their bits. */
const UNUSABLE_ORDER = ['country', 'asn', 'ip'] as const;

/** Records DuckDB read, decided alike by every set and alike in the fields they carry. */
interface NativeGroup {
  codes: number[];
  /** Bits of PRESENCE_ORDER: the fields the group's records carry. */
  presence: number;
  /** Bits of UNUSABLE_ORDER: the fields they carry in a form no rule matches. */
  unusable: number;
  count: number;
  /** The first records' numbers (ascending). */
  firsts: number[];
}

export interface NativeEvent {
  row: number;
  run: () => void;
}

/**
 * When DuckDB read, decided and counted the file: how many of its first records were numbered
 * (all of them: `numbered` is the count), and whether it read the file once; else why the js
 * reader must read it (nothing counted then).
 */
export async function readNatively(file: string, options: TrafficReadOptions, ctx: NativeContext): Promise<{ numbered: number; once: boolean } | string> {
  const path = resolve(options.cwd, file);
  const opened = await nativeSource(file, path, options, ctx.decider);
  if (typeof opened === 'string') return opened;
  const size = (await stat(path)).size;
  let reading: Awaited<ReturnType<DuckDbDecider['readClasses']>>;
  try {
    reading = await ctx.decider.readClasses(path, opened.source, { fieldsRead: ctx.tallies.missing.fieldsRead, isSecret: secretNameTest(options.secretNames) },
      options.onBytes === undefined ? undefined : (share) => options.onBytes?.(Math.round(size * share)), opened.reader);
  } catch (error) {
    // Whatever DuckDB could not read (a line that is no JSON, a line too long, damaged gzip): the js reader says where.
    return `DuckDB could not read it (${(error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''})`;
  }
  const { odd } = reading;
  if (odd.count > MAX_ODD_RECORDS) return `more than ${MAX_ODD_RECORDS} records DuckDB would read otherwise than JavaScript`;
  const grouping = new GroupDeciding(reading.classes, ctx);
  const plain = reading.groups.map((group) => grouping.group(group));
  if (plain.length === 0) return 'no record DuckDB reads as JavaScript does';
  const wants = wantedRecords(plain, ctx);
  const total = plain.reduce((sum, group) => sum + group.count, odd.count);
  let numbered = total;
  if (!reading.numbered) {
    try {
      numbered = await numberUntilFound(total, () => wantedFound(wants, plain, odd, MAX_ODD_RECORDS + 1), reading.number);
    } catch (error) {
      return `DuckDB could not read it (${(error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''})`;
    }
  }
  const shown = shownRows(plain, wants);
  const { source, reader } = opened;
  const lines = source.kind === 'parquet' && reader?.row !== undefined
    ? await parquetLinesAt({ file, path, options, columns: source.columns, reader, decider: ctx.decider }, odd.rows, [...shown.keys()])
    : await linesAt(file, options, [...odd.rows, ...shown.keys()]);
  // The js reader numbers the records as DuckDB did, and decides the records shown alike.
  if (!odd.rows.every((row) => lines.has(row)) || !decidedAlike(shown, lines, ctx)) return 'the js reader did not read its first records as DuckDB did';
  feedNative(file, plain, odd.rows, lines, ctx);
  options.onBytes?.(size);
  return { numbered, once: reading.once };
}

/**
 * Groups of records alike, each decided once: from its classes' leaf verdicts (class-decisions.ts),
 * or where a class has an undecided leaf, by the js program on a request made of the classes'
 * first values. The fields carried and unusable are each class's own too: a class's part sets
 * only its field, and each bit holds of a request where it holds of one of its parts.
 */
class GroupDeciding {
  private readonly decisions: ClassDecisions;
  /** Per field of CLASS_FIELDS, per class id: its presence and unusable bits (made when first met). */
  private readonly bits: ({ presence: number; unusable: number } | undefined)[][] = CLASS_FIELDS.map(() => []);

  constructor(private readonly values: ValueClasses, private readonly ctx: NativeContext) {
    this.decisions = new ClassDecisions(ctx.decider.program, CLASS_FIELDS, (at, id) => values.of(CLASS_FIELDS[at] as RequestField).changes(id));
  }

  group({ classes, count, firsts }: ClassGroup): NativeGroup {
    const codes = this.decisions.codes(classes) ?? this.ctx.js().decide(this.requestOf(classes)).map(this.ctx.codeOf);
    let presence = 0;
    let unusable = 0;
    classes.forEach((id, at) => {
      const known = this.bits[at] as ({ presence: number; unusable: number } | undefined)[];
      const bits = known[id] ?? (known[id] = fieldBits(this.partOf(at, id) ?? {}));
      presence |= bits.presence;
      unusable |= bits.unusable;
    });
    return { codes, presence, unusable, count, firsts };
  }

  private partOf(at: number, id: number): ReplayExample['request'] | undefined {
    return this.values.of(CLASS_FIELDS[at] as RequestField).classes[id]?.part;
  }

  private requestOf(classes: readonly number[]): ReplayExample['request'] {
    return Object.assign({}, ...classes.map((id, at) => this.partOf(at, id))) as ReplayExample['request'];
  }
}

/** The fields a request carries (PRESENCE_ORDER) and carries unusable (UNUSABLE_ORDER), as bits. */
function fieldBits(request: ReplayExample['request']): { presence: number; unusable: number } {
  let presence = 0;
  PRESENCE_ORDER.forEach((field, bit) => {
    // Custom parameters count where a line has some; the others where rules can read them (coverage.ts).
    if (field === 'custom' ? request.custom !== undefined : carries(request, field)) presence |= 2 ** bit;
  });
  let unusable = 0;
  UNUSABLE_ORDER.forEach((field, bit) => {
    const value = request[field];
    if (value !== undefined && unusableForm(field, value)) unusable |= 2 ** bit;
  });
  return { presence, unusable };
}

/**
 * The records the report needs (docs/replay.md, "Engines"), as groups of these groups: the first
 * EXAMPLES_PER_TRANSITION of each transition of outcome (main and, with shadow rules, shadow),
 * the first of each rule pair with an undecided side (its patterns are explained on it), and the
 * first of each field's unusable values.
 */
function wantedRecords(groups: readonly NativeGroup[], ctx: NativeContext): Wanted[] {
  const wants = new Map<string, Wanted & { groups: number[] }>();
  const want = (key: string, at: number, wanted: number) => {
    const known = wants.get(key);
    if (known === undefined) wants.set(key, { groups: [at], wanted });
    else known.groups.push(at);
  };
  const pairs = ctx.decisions.length > 2 ? [[0, 1], [1, 2]] : [[0, 1]];
  groups.forEach((group, at) => {
    for (const [from, to] of pairs as [number, number][]) {
      const [before, after] = [ctx.decisions[from]?.(group.codes[from] as number), ctx.decisions[to]?.(group.codes[to] as number)];
      if (before === undefined || after === undefined || outcomeOf(before) === outcomeOf(after)) continue;
      want(`${from}:${outcomeOf(before)}>${outcomeOf(after)}`, at, EXAMPLES_PER_TRANSITION);
      if (before.undecided !== undefined || after.undecided !== undefined) want(`${from}:${group.codes[from]}>${group.codes[to]}`, at, 1);
    }
    UNUSABLE_ORDER.forEach((field, bit) => {
      if ((group.unusable >> bit) & 1) want(field, at, 1);
    });
  });
  return [...wants.values()];
}

/** The records the report shows (each want's first records), with their groups' decisions. */
function shownRows(groups: readonly NativeGroup[], wants: readonly Wanted[]): Map<number, number[]> {
  const shown = new Map<number, number[]>();
  for (const { groups: members, wanted } of wants) {
    const rows = members.flatMap((at) => (groups[at] as NativeGroup).firsts.map((row) => ({ row, codes: (groups[at] as NativeGroup).codes })));
    for (const { row, codes } of rows.sort((a, b) => a.row - b.row).slice(0, wanted)) shown.set(row, codes);
  }
  return shown;
}

/** The first of these groups' records (a group found beyond the records numbered has none). */
function firstOf(groups: readonly NativeGroup[]): NativeGroup | undefined {
  return groups.filter((group) => group.firsts.length > 0).sort((a, b) => (a.firsts[0] as number) - (b.firsts[0] as number))[0];
}

/** The js reader's lines at these record numbers. */
async function linesAt(file: string, options: TrafficReadOptions, ordinals: readonly number[]): Promise<Map<number, LogLine>> {
  const lines = new Map<number, LogLine>();
  const { onBytes: _progress, ...reading } = options;
  for await (const batch of readLog(file, { ...reading, only: new Set(ordinals) })) {
    for (const line of batch) if (line.ordinal !== undefined) lines.set(line.ordinal, line);
  }
  return lines;
}

/**
 * A Parquet file's lines: the odd rows by the js reader, the rows shown as DuckDB reads them,
 * each row read by the js reader's plan (the same functions as the classes' values): the js
 * reader would decode whole row groups, in JavaScript, for a few rows of each. A row the plan
 * cannot read so is left out, and the file is read by the js reader (decidedAlike).
 */
async function parquetLinesAt(at: { file: string; path: string; options: TrafficReadOptions; columns: ReadonlyMap<RequestField, string>; reader: ValueReader; decider: DuckDbDecider },
  oddRows: readonly number[], shownRows: readonly number[]): Promise<Map<number, LogLine>> {
  const { file, options, reader } = at;
  const lines = oddRows.length === 0 ? new Map<number, LogLine>() : await linesAt(file, options, oddRows);
  const isSecret = secretNameTest(options.secretNames);
  const texts = await at.decider.rowsAt(at.path, at.columns, shownRows.filter((row) => !lines.has(row)));
  for (const [row, values] of texts) {
    const record = reader.row?.(values);
    if (record === undefined) continue;
    const result = reader.request(record);
    // As the js reader finishes a line (read.ts).
    if ('request' in result) redactRequest(normaliseRequest(result.request), isSecret);
    lines.set(row, { file, line: row, result, ordinal: row });
  }
  return lines;
}

/**
 * The records shown are requests the js program decides as their groups were decided: its
 * verdicts asked rule by rule (ProgramVerdicts.decision), for a few records no rule index built.
 */
function decidedAlike(shown: ReadonlyMap<number, readonly number[]>, lines: ReadonlyMap<number, LogLine>, ctx: NativeContext): boolean {
  const { program } = ctx.decider;
  const verdicts = new ProgramVerdicts(program);
  return [...shown].every(([row, decided]) => {
    const result = lines.get(row)?.result;
    if (result === undefined || !('request' in result)) return false;
    verdicts.begin(result.request);
    // The program's sets are the replayed rule sets (replay-duckdb.ts compiles them): their rules are live rules.
    const codes = program.sets.map((set) => ctx.codeOf(verdicts.decision(set) as Decision<LiveRule>));
    return codes.every((code, set) => code === decided[set]);
  });
}

/** The groups and the odd records into the tallies, in log order, as the js engine would have counted them. */
function feedNative(file: string, plain: readonly NativeGroup[], oddRows: readonly number[], lines: ReadonlyMap<number, LogLine>, ctx: NativeContext): void {
  const { tallies } = ctx;
  const exampleAt = (row: number): ReplayExample => {
    const line = lines.get(row);
    // Only the records shownRows names are read again, and only they are ever shown.
    if (line === undefined || !('request' in line.result)) throw new Error(`${file}: record ${row} was not read again`);
    return { file, line: line.line, request: line.result.request };
  };
  const events: NativeEvent[] = [];
  ctx.pairEvents(plain, exampleAt, events);
  for (const field of PRESENCE_ORDER) {
    tallies.main.fields.addCarried(field, plain.reduce((sum, group) => sum + ((group.presence >> PRESENCE_ORDER.indexOf(field)) & 1) * group.count, 0));
  }
  UNUSABLE_ORDER.forEach((field, bit) => {
    const groups = plain.filter((group) => (group.unusable >> bit) & 1);
    if (groups.length === 0) return;
    const count = groups.reduce((sum, group) => sum + group.count, 0);
    const row = firstOf(groups)?.firsts[0] as number;
    const example = exampleAt(row);
    events.push({ row, run: () => tallies.main.fields.addUnusable(field as TextField, count, example.request[field] ?? '', example) });
  });
  for (const row of oddRows) events.push({ row, run: () => oddRecord(lines.get(row) as LogLine, ctx) });
  events.sort((a, b) => a.row - b.row);
  for (const event of events) event.run();
}

/** A record read by the js reader: as the js engine counts it. */
function oddRecord({ file, line, result }: LogLine, ctx: NativeContext): void {
  const { tallies } = ctx;
  if ('skip' in result) {
    tallies.main.skip(result.skip, file, line);
    return;
  }
  const read = { example: { file, line, request: result.request }, carriage: result.carriage ?? {}, decision: result.decision };
  if (!tallies.main.fields.count(result.request, read.example, read.carriage, result.keys)) accountEmpty(read, tallies);
  else accountDecided(read, [...ctx.js().decide(result.request)], tallies);
}
