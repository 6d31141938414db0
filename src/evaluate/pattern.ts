// `$re` patterns decided in bounded time (docs/evaluation.md, "Regular expressions"). A rule's
// pattern is JavaScript's; V8 runs it by backtracking, so `^(a+)+$` on 36 `a`s and a `!` takes
// minutes. Each pattern is compiled once and decided by:
// - RE2 (re2js, linear time) when it has an exact RE2 form (linear-pattern.ts), or opens with
//   lookaheads at the start of the text whose bodies and rest each have one (pattern-lookahead.ts),
//   and the text has no surrogate code units (JavaScript without `u` sees those as separate
//   characters, RE2 as one code point);
// - otherwise V8 itself, each run interrupted after MATCH_BUDGET_MS: a run that is interrupted
//   is 'undecided', never a guess. The budget is per text, not per pattern: a replay of millions
//   of requests runs a lookahead pattern on each, and none of them must become undecided because
//   the ones before it, each quick, added up. A pattern interrupted MAX_INTERRUPTED_RUNS times
//   is not run again: the texts after those are undecided too, so a log full of hostile texts
//   (an attack is exactly that) costs a few seconds per pattern, not one second per request.
import { createContext, Script } from 'node:vm';
import { RE2JS } from 're2js';
import { linearForm } from './linear-pattern.js';
import { lookaheadParts } from './pattern-lookahead.js';

/** Whether a leaf (or a pattern) matches: 'undecided' when its pattern ran out of time. */
export type Verdict = boolean | 'undecided';

/** Longest one match may run on V8's engine. */
export const MATCH_BUDGET_MS = 1000;

/** Runs of one pattern that may be interrupted before the pattern is no longer run at all. */
const MAX_INTERRUPTED_RUNS = 3;

/**
 * How many recent texts each backtracking pattern remembers the answer for: the evaluator asks
 * again about the text it just decided (which patterns left a rule undecided), and an
 * interrupted run must not be run, and perhaps answered differently, a second time. Bounded,
 * so a long replay's distinct texts are not all kept.
 */
const REMEMBERED_TEXTS = 16;

const SURROGATE = /[\ud800-\udfff]/;

export interface CompiledPattern {
  source: string;
  /**
   * RE2 when the pattern has an exact linear form; re2-parts when RE2 runs its leading lookaheads
   * and its rest apart (pattern-lookahead.ts); else V8 under the budget; none: it does not compile.
   * Texts with surrogate code units run on V8 under the budget whatever the engine.
   */
  engine: 're2' | 're2-parts' | 'v8' | 'none';
  /** `new RegExp(source, flags).test(text)`, or 'undecided'. */
  test(text: string): Verdict;
}

const compiled = new Map<string, CompiledPattern>();
/** The budgeted regex behind each pattern V8 runs, for budgetedAnswers. */
const budgetedOf = new WeakMap<CompiledPattern, BudgetedRegex>();

/** `source` with flags '' or 'i', compiled once per process. */
export function compilePattern(source: string, ignoreCase: boolean): CompiledPattern {
  const key = `${ignoreCase ? 'i' : ''}/${source}`;
  let pattern = compiled.get(key);
  if (pattern === undefined) compiled.set(key, (pattern = compile(source, ignoreCase)));
  return pattern;
}

function compile(source: string, ignoreCase: boolean): CompiledPattern {
  let regex: RegExp;
  try {
    regex = new RegExp(source, ignoreCase ? 'i' : '');
  } catch {
    // A pattern that does not compile matches nothing (validate reports it).
    return { source, engine: 'none', test: () => false };
  }
  const budgeted = new BudgetedRegex(regex);
  const linear = linearTest(source, ignoreCase);
  if (linear === undefined) {
    const pattern: CompiledPattern = { source, engine: 'v8', test: (text) => budgeted.test(text) };
    budgetedOf.set(pattern, budgeted);
    return pattern;
  }
  // The last text's answer is kept: many rules of a rule set share a pattern, and a request's
  // value is tested against each of them in turn (replay decides millions of requests).
  let lastText: string | undefined;
  let lastVerdict: Verdict = false;
  const test = (text: string): Verdict => {
    if (text === lastText) return lastVerdict;
    lastVerdict = SURROGATE.test(text) ? budgeted.test(text) : linear.test(text);
    lastText = text;
    return lastVerdict;
  };
  return { source, engine: linear.engine, test };
}

/** RE2's test of the pattern, for texts without surrogates, when it gives JavaScript's answer. */
function linearTest(source: string, ignoreCase: boolean): { engine: 're2' | 're2-parts'; test(text: string): boolean } | undefined {
  const whole = re2Of(linearForm(source, ignoreCase));
  if (whole !== undefined) return { engine: 're2', test: (text) => whole.test(text) };
  const parts = lookaheadParts(source, ignoreCase);
  if (parts === undefined) return undefined;
  const required = parts.required.map(re2Of);
  const refused = parts.refused.map(re2Of);
  if (!isEvery(required) || !isEvery(refused)) return undefined;
  // Each part anchored at the start: the pattern matches when no refused part and every required one does.
  return { engine: 're2-parts', test: (text) => !refused.some((part) => part.test(text)) && required.every((part) => part.test(text)) };
}

function isEvery<T>(values: readonly (T | undefined)[]): values is T[] {
  return values.every((value) => value !== undefined);
}

function re2Of(form: string | undefined): RE2JS | undefined {
  if (form === undefined) return undefined;
  try {
    return RE2JS.compile(form);
  } catch {
    return undefined; // beyond RE2's limits (a repeat count over 1000, a program too large)
  }
}

/** One context for every budgeted run: a run is `pattern.test(text)` with a timeout. */
let sandbox: { context: object; script: Script } | undefined;
/** Runs of budgetedAnswers: patterns on one text, interrupted at MATCH_BUDGET_MS. */
let batchSandbox: { context: object; script: Script } | undefined;
/** Batches interrupted so far: after MAX_INTERRUPTED_RUNS of them, nothing is primed any more. */
let interruptedBatches = 0;
/** Single runs interrupted so far, of any pattern. */
let interruptedRuns = 0;

/**
 * How many runs of any pattern were interrupted so far: answers kept from budgetedAnswers hold
 * only while this stays the same, since a pattern interrupted too often is no longer run and
 * its test then answers 'undecided' for a text it does not remember.
 */
export function interruptions(): number {
  return interruptedRuns;
}

/**
 * The answers of V8-run patterns (of compilePattern) on one text, from one budgeted run: a
 * budgeted run's set-up costs a hundred times a pattern's test, and replay asks many patterns
 * about each new user agent. The run is interrupted after MATCH_BUDGET_MS, so every answer given
 * came within the budget, as the pattern's own test would have given it; undefined for a pattern
 * the run did not finish (or not run by V8, or run no more): its own test decides it when asked,
 * interrupted and counted as before. Never a guess.
 */
export function budgetedAnswers(patterns: readonly CompiledPattern[], text: string): (boolean | undefined)[] {
  const answers: (boolean | undefined)[] = patterns.map(() => undefined);
  if (interruptedBatches >= MAX_INTERRUPTED_RUNS) return answers;
  const runs = patterns.flatMap((pattern, at) => {
    const regex = budgetedOf.get(pattern);
    return regex !== undefined && regex.runnable() ? [{ regex: regex.regex, at }] : [];
  });
  batchSandbox ??= {
    context: createContext(Object.create(null) as object),
    script: new Script('for (let at = 0; at < patterns.length; at++) { verdicts[at] = patterns[at].test(text); }'),
  };
  const context = batchSandbox.context as { patterns?: RegExp[]; text?: string; verdicts?: boolean[] };
  const verdicts: boolean[] = [];
  Object.assign(context, { patterns: runs.map((run) => run.regex), text, verdicts });
  try {
    batchSandbox.script.runInContext(batchSandbox.context, { timeout: MATCH_BUDGET_MS });
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw err;
    interruptedBatches += 1;
  } finally {
    delete context.patterns;
    delete context.text;
    delete context.verdicts;
  }
  verdicts.forEach((verdict, at) => (answers[(runs[at] as { at: number }).at] = verdict));
  return answers;
}

/** A V8 regular expression whose runs are interrupted, the last few texts' answers remembered. */
class BudgetedRegex {
  private readonly verdicts = new Map<string, Verdict>();
  private interrupted = 0;

  constructor(readonly regex: RegExp) {}

  test(text: string): Verdict {
    let verdict = this.verdicts.get(text);
    // The most recently asked last: the map's first key is the one to forget.
    if (verdict !== undefined) this.verdicts.delete(text);
    else verdict = this.run(text);
    this.remember(text, verdict);
    return verdict;
  }

  /** Whether the pattern is still run (not interrupted too often). */
  runnable(): boolean {
    return this.interrupted < MAX_INTERRUPTED_RUNS;
  }

  remember(text: string, verdict: Verdict): void {
    if (!this.verdicts.has(text) && this.verdicts.size >= REMEMBERED_TEXTS) this.verdicts.delete(this.verdicts.keys().next().value as string);
    this.verdicts.set(text, verdict);
  }

  private run(text: string): Verdict {
    if (this.interrupted >= MAX_INTERRUPTED_RUNS) return 'undecided';
    sandbox ??= { context: createContext(Object.create(null) as object), script: new Script('pattern.test(text)') };
    const context = sandbox.context as { pattern?: RegExp; text?: string };
    context.pattern = this.regex;
    context.text = text;
    try {
      return sandbox.script.runInContext(sandbox.context, { timeout: MATCH_BUDGET_MS }) === true;
    } catch (err) {
      if ((err as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
        this.interrupted += 1;
        interruptedRuns += 1;
        return 'undecided';
      }
      throw err;
    } finally {
      delete context.pattern;
      delete context.text;
    }
  }
}
