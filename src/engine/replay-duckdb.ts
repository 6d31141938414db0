// `replay --engine duckdb` (docs/replay.md, "Engines"): the logs read and masked as for the js
// engine (one reader, so skipped lines, masking and examples are the same), the requests handed
// to DuckDB in batches and decided there by the compiled program's SQL, while the next batch is
// read. The groups DuckDB returns feed the same tally as the js engine's decisions, in log order.
import { rm } from 'node:fs/promises';
import { UserError } from '../errors.js';
import type { Decision } from '../evaluate/index.js';
import { compileRuleSets, type CompiledRuleSets } from '../requests/traffic/compiled.js';
import { readLog, type TrafficReadOptions } from '../requests/traffic/read.js';
import { EXAMPLES_PER_TRANSITION, type ReplayTally } from '../requests/traffic/tally.js';
import { accountDecided, accountEmpty, needsOwnAccount, type ReadRequest, type Tallies } from '../requests/traffic/account.js';
import { Batch, BATCH_REQUESTS, batchDirectory, batchLine, writeBatch } from '../requests/duckdb/batches.js';
import { DuckDbDecider, type DecidedGroup } from '../requests/duckdb/decider.js';
import { decisionOf, NO_RULE } from '../requests/sql/emit.js';
import type { LiveRule } from '../semantics/model.js';
import { compileProgram } from '../semantics/program.js';

export async function decideWithDuckDb(files: readonly string[], reading: (file: string) => TrafficReadOptions, sets: readonly (readonly LiveRule[])[], tallies: Tallies): Promise<void> {
  const decider = await DuckDbDecider.open(compileProgram(sets));
  const dir = await batchDirectory();
  const decisions = sets.map(decisionsOf);
  // Rows DuckDB cannot read as JavaScript does are decided here, by the js engine's program.
  let here: CompiledRuleSets<LiveRule> | undefined;
  let batch = new Batch();
  let batches = 0;
  let inFlight: Promise<void> = Promise.resolve();
  const flush = async () => {
    // One batch in DuckDB while the next is read: memory holds two batches at most.
    await inFlight;
    const full = batch;
    batch = new Batch();
    const file = dir.file(batches++);
    await writeBatch(file, full);
    inFlight = (full.lines.length === 0 ? Promise.resolve([]) : decider.decide(file).catch((error: unknown) => {
      // DuckDB's own failure (out of memory, say): no partial report, and where it happened.
      const last = full.examples.at(-1);
      const where = last === undefined ? '' : ` (the batch ending at ${last.file}:${last.line})`;
      throw new UserError(`the duckdb engine could not decide a batch of requests${where}: ${(error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''}`, ['Replay with --engine js, or split the logs and merge the reports (botrules replay merge)']);
    })).then(async (groups) => {
      feed(full, [...groups, ...full.decidedHere.map(({ row, codes }) => ({ codes, count: 1, firsts: [row] }))], decisions, tallies);
      await rm(file, { force: true });
    });
    // Awaited at the next flush or the end; marked handled so a failure waits for that await.
    inFlight.catch(() => undefined);
  };
  try {
    for (const file of files) {
      for await (const lines of readLog(file, reading(file))) {
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
            here ??= compileRuleSets(sets);
            batch.own.push({ row, read, decisions: [...here.decide(result.request)] });
          } else {
            const text = batchLine(row, result.request);
            if (text !== undefined) batch.lines.push(text);
            else {
              here ??= compileRuleSets(sets);
              batch.decidedHere.push({ row, codes: here.decide(result.request).map(codeOf) });
            }
          }
          if (batch.size >= BATCH_REQUESTS) await flush();
        }
      }
    }
    await flush();
    await inFlight;
  } finally {
    decider.close();
    await dir.remove();
  }
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
  const events: { row: number; run: () => void }[] = [];
  pairEvents(batch, groups, 0, 1, decisions, tallies.main, events);
  if (decisions.length > 2) pairEvents(batch, groups, 1, 2, decisions, tallies.shadow, events);
  for (const { row, read, decisions: decided } of batch.own) {
    events.push({ row, run: () => (decided === undefined ? accountEmpty(read, tallies) : accountDecided(read, decided, tallies)) });
  }
  events.sort((a, b) => a.row - b.row);
  for (const event of events) event.run();
}

function pairEvents(batch: Batch, groups: readonly DecidedGroup[], from: number, to: number, decisions: ((code: number) => Decision<LiveRule>)[], tally: ReplayTally, events: { row: number; run: () => void }[]): void {
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
  const exampleAt = (row: number) => batch.examples[row] as NonNullable<Batch['examples'][number]>;
  for (const pair of pairs.values()) {
    const [before, after] = [beforeOf(pair.before), afterOf(pair.after)];
    const firsts = pair.firsts.sort((a, b) => a - b).slice(0, EXAMPLES_PER_TRANSITION);
    firsts.forEach((row, index) => events.push({ row, run: () => {
      if (index === 0) tally.addGroup(exampleAt(row), before, after, pair.count);
      tally.addExample(before, after, exampleAt(row));
    } }));
  }
}
