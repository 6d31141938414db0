// `replay --engine duckdb` (docs/replay.md, "Engines"). A plain NDJSON log (gzip too) DuckDB
// reads itself (replay-duckdb-native.ts); any other log is read and masked by the js engine's
// reader (one reader, so skipped lines, masking and examples are the same), its requests handed
// to DuckDB in batches and decided there by the compiled program's SQL while the next batch is
// read. Either way the groups DuckDB returns feed the js engine's tallies, in log order.
import { rm } from 'node:fs/promises';
import { UserError } from '../errors.js';
import type { Decision } from '../evaluate/evaluate.js';
import { compileRuleSets, type CompiledRuleSets } from '../replay/compiled.js';
import { readLog, type TrafficReadOptions } from '../replay/read.js';
import { EXAMPLES_PER_TRANSITION, type ReplayExample, type ReplayTally } from '../replay/tally.js';
import { readNatively, type NativeContext, type NativeEvent } from './replay-duckdb-native.js';
import { accountDecided, accountEmpty, needsOwnAccount, type ReadRequest, type Tallies } from '../replay/account.js';
import { Batch, BATCH_REQUESTS, batchDirectory, batchLine, writeBatch } from '../replay/duckdb/batches.js';
import { DuckDbDecider, type DecidedGroup } from '../replay/duckdb/decider.js';
import { decisionOf, NO_RULE } from '../replay/sql/emit.js';
import type { LiveRule } from '../semantics/model.js';
import { compileProgram } from '../semantics/program.js';

/** Decides the files' requests; returns, per file, how it was read: natively, or why not (for --verbose). */
export async function decideWithDuckDb(files: readonly string[], reading: (file: string) => TrafficReadOptions, sets: readonly (readonly LiveRule[])[], tallies: Tallies): Promise<string[]> {
  const decider = await DuckDbDecider.open(compileProgram(sets));
  const dir = await batchDirectory();
  const decisions = sets.map(decisionsOf);
  // Rows DuckDB cannot read as JavaScript does are decided here, by the js engine's program.
  let here: CompiledRuleSets<LiveRule> | undefined;
  const js = () => (here ??= compileRuleSets(sets));
  const native: NativeContext = {
    decider, decisions, tallies, js, codeOf,
    pairEvents: (groups, exampleAt, events) => {
      pairEvents(groups, exampleAt, 0, 1, decisions, tallies.main, events);
      if (decisions.length > 2) pairEvents(groups, exampleAt, 1, 2, decisions, tallies.shadow, events);
    },
  };
  const how: string[] = [];
  try {
    for (const file of files) {
      const read = await readNatively(file, reading(file), native);
      if (typeof read === 'string') {
        how.push(`${file}: read by the js reader (${read})`);
        await decideFed(file, reading(file), { decider, dir, decisions, tallies, js });
      } else how.push(`${file}: read by DuckDB (its first ${read.numbered} records numbered)${read.once ? ', in one reading' : ''}`);
    }
    return how;
  } finally {
    decider.close();
    await dir.remove();
  }
}

interface FedContext {
  decider: DuckDbDecider;
  dir: Awaited<ReturnType<typeof batchDirectory>>;
  decisions: ((code: number) => Decision<LiveRule>)[];
  tallies: Tallies;
  js: () => CompiledRuleSets<LiveRule>;
}

/** A file the js reader reads, its requests handed to DuckDB in batches (one deciding while the next is read). */
async function decideFed(file: string, options: TrafficReadOptions, ctx: FedContext): Promise<void> {
  const { decider, dir, decisions, tallies, js } = ctx;
  let batch = new Batch();
  let inFlight: Promise<void> = Promise.resolve();
  const flush = async () => {
    // One batch in DuckDB while the next is read: memory holds two batches at most.
    await inFlight;
    const full = batch;
    batch = new Batch();
    const path = dir.file();
    await writeBatch(path, full);
    inFlight = (full.lines.length === 0 ? Promise.resolve([]) : decider.decide(path).catch((error: unknown) => {
      // DuckDB's own failure (out of memory, say): no partial report, and where it happened.
      const last = full.examples.at(-1);
      const where = last === undefined ? '' : ` (the batch ending at ${last.file}:${last.line})`;
      throw new UserError(`the duckdb engine could not decide a batch of requests${where}: ${(error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''}`, ['Replay with --engine js, or split the logs and merge the reports (botrules replay merge)']);
    })).then(async (groups) => {
      feed(full, [...groups, ...full.decidedHere.map(({ row, codes }) => ({ codes, count: 1, firsts: [row] }))], decisions, tallies);
      await rm(path, { force: true });
    });
    // Awaited at the next flush or the end; marked handled so a failure waits for that await.
    inFlight.catch(() => undefined);
  };
  for await (const lines of readLog(file, options)) {
    for (const { line, result } of lines) {
      if ('skip' in result) {
        tallies.main.skip(result.skip, file, line);
        continue;
      }
      const row = batch.size;
      const read: ReadRequest = { example: { file, line, request: result.request }, carriage: result.carriage ?? {}, decision: result.decision };
      batch.examples.push(read.example);
      if (!tallies.main.fields.count(result.request, read.example, read.carriage, result.keys)) {
        batch.own.push({ row, read });
      } else if (needsOwnAccount(read, tallies)) {
        // Accounted request by request, in log order among the groups: decided here, as the js engine does.
        batch.own.push({ row, read, decisions: [...js().decide(result.request)] });
      } else {
        const text = batchLine(row, result.request);
        if (text !== undefined) batch.lines.push(text);
        else batch.decidedHere.push({ row, codes: js().decide(result.request).map(codeOf) });
      }
      if (batch.size >= BATCH_REQUESTS) await flush();
    }
  }
  await flush();
  await inFlight;
}

/** A set's decision for each decision number: its rule, or the rule whose match was undecided. */
function decisionsOf(rules: readonly LiveRule[]): (code: number) => Decision<LiveRule> {
  const none: Decision<LiveRule> = { rule: undefined, index: -1, actions: [] };
  return (code) => {
    const decided = decisionOf(code);
    if (decided === undefined) return none;
    const rule = rules[decided.position] as LiveRule;
    return decided.undecided ? { rule: undefined, index: -1, actions: [], undecided: { rule, index: decided.position } } : { rule, index: decided.position, actions: [...rule.actions] };
  };
}

function codeOf(decision: Decision<LiveRule>): number {
  if (decision.undecided !== undefined) return -2 - decision.undecided.index;
  return decision.rule === undefined ? NO_RULE : decision.index;
}

/**
 * A batch into the tallies, in log order: each rule pair's count at its first request and its
 * examples at theirs (pairs of requests decided alike, from the groups), and the requests
 * accounted one by one at theirs, so examples and first occurrences are the js engine's.
 */
function feed(batch: Batch, groups: readonly DecidedGroup[], decisions: ((code: number) => Decision<LiveRule>)[], tallies: Tallies): void {
  const events: NativeEvent[] = [];
  const exampleAt = (row: number) => batch.examples[row] as NonNullable<Batch['examples'][number]>;
  pairEvents(groups, exampleAt, 0, 1, decisions, tallies.main, events);
  if (decisions.length > 2) pairEvents(groups, exampleAt, 1, 2, decisions, tallies.shadow, events);
  for (const { row, read, decisions: decided } of batch.own) {
    events.push({ row, run: () => (decided === undefined ? accountEmpty(read, tallies) : accountDecided(read, decided, tallies)) });
  }
  events.sort((a, b) => a.row - b.row);
  for (const event of events) event.run();
}

/** The events of one set pair: groups decided alike under both sets merged, each pair's count at its first request, its examples at theirs. */
function pairEvents(groups: readonly DecidedGroup[], exampleAt: (row: number) => ReplayExample, from: number, to: number, decisions: ((code: number) => Decision<LiveRule>)[], tally: ReplayTally, events: NativeEvent[]): void {
  const pairs = new Map<string, { before: number; after: number; count: number; firsts: number[] }>();
  for (const group of groups) {
    const before = group.codes[from] as number;
    const after = group.codes[to] as number;
    const key = `${before}>${after}`;
    const pair = pairs.get(key);
    if (pair === undefined) pairs.set(key, { before, after, count: group.count, firsts: [...group.firsts] });
    else {
      pair.count += group.count;
      pair.firsts.push(...group.firsts);
    }
  }
  const [beforeOf, afterOf] = [decisions[from], decisions[to]] as [(code: number) => Decision<LiveRule>, (code: number) => Decision<LiveRule>];
  for (const pair of pairs.values()) {
    const [before, after] = [beforeOf(pair.before), afterOf(pair.after)];
    const firsts = pair.firsts.sort((a, b) => a - b).slice(0, EXAMPLES_PER_TRANSITION);
    // A pair none of whose records was numbered (replay/duckdb/first-records.ts) shows none: counted last.
    if (firsts.length === 0) events.push({ row: Number.MAX_SAFE_INTEGER, run: () => tally.addGroup(() => undefined, before, after, pair.count) });
    // Examples are taken only while their transition has fewer than it shows: only those records are read.
    firsts.forEach((row, index) => events.push({ row, run: () => {
      if (index === 0) tally.addGroup(() => exampleAt(row).request, before, after, pair.count);
      tally.addExample(before, after, () => exampleAt(row));
    } }));
  }
}
