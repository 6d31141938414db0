// `replay --baseline REPORT.json` (docs/replay.md, "Baselines"): this replay's outcome changes
// compared with an earlier JSON report's (last week's), by transition and rule pair: what newly
// changes outcome, what stopped, and what changed share. The earlier report is untrusted input:
// read with a size cap, checked in shape, and an error naming the file when it is not a report.
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UserError } from '../errors.js';
import { jsonTooDeep } from '../io/json-depth.js';

/** An outcome as reports name it (`none`, `allow`, `challenge`, `block`, `undecided`). */
type OutcomeKind = 'none' | 'allow' | 'challenge' | 'block' | 'undecided';

/** A transition as a JSON report holds it: the part the comparison reads. */
interface ReportTransition {
  from: OutcomeKind;
  to: OutcomeKind;
  count: number;
  share: number;
  rules: { before?: string | undefined; after?: string | undefined; count: number }[];
}

/** The largest baseline read: a JSON report keeps counts and three examples per transition. */
const MAX_BASELINE_BYTES = 64 * 1024 * 1024;

/** One transition's rule pair and its requests in one report. */
interface PairCount {
  from: OutcomeKind;
  to: OutcomeKind;
  /** The deciding rules, live → declared (undefined: no rule). */
  before: string | undefined;
  after: string | undefined;
  count: number;
  share: number;
}

/** One transition's rule pair, as both reports count it: requests and share now (0 when it stopped) and in the baseline (0 when it is new). */
export interface BaselineChange extends PairCount {
  baselineCount: number;
  baselineShare: number;
}

export interface BaselineComparison {
  /** The baseline file, as named. */
  file: string;
  /** Rule pairs that change outcome now and did not in the baseline. */
  newly: BaselineChange[];
  /** Rule pairs that changed outcome in the baseline and do not now. */
  stopped: BaselineChange[];
}

/** A baseline as it was read: only what the comparison needs. */
interface BaselineReport {
  file: string;
  evaluated: number;
  transitions: ReportTransition[];
}

const OUTCOMES: readonly string[] = ['none', 'allow', 'challenge', 'block', 'undecided'];

/** Reads an earlier `replay --format json` report; anything else is an error naming the file. */
export async function readBaseline(file: string, cwd: string): Promise<BaselineReport> {
  const path = resolve(cwd, file);
  const size = await stat(path).then((info) => info.size, (error: NodeJS.ErrnoException) => {
    throw new UserError(`cannot read the baseline ${file} (${error.code ?? 'unreadable'})`);
  });
  if (size > MAX_BASELINE_BYTES) throw new UserError(`${file}: a baseline larger than 64 MiB is not a replay report`);
  const text = await readFile(path, 'utf8');
  // A report nests a handful of levels; 60 MB of brackets took JSON.parse half a minute and 3 GB.
  const deep = jsonTooDeep(text);
  if (deep !== undefined) throw new UserError(`${file}:${deep.line}:${deep.col}: the baseline ${deep.message}: give a report written by botrules replay --format json`);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new UserError(`${file}:1:1: the baseline is not JSON: give a report written by botrules replay --format json`);
  }
  const report = document as { formatVersion?: unknown; evaluated?: unknown; transitions?: unknown };
  if (typeof report !== 'object' || report === null || report.formatVersion !== 1 || typeof report.evaluated !== 'number' || !Array.isArray(report.transitions) ||
    !report.transitions.every(isTransition)) {
    throw new UserError(`${file}:1:1: not a replay report (formatVersion 1, evaluated, transitions): give a report written by botrules replay --format json`);
  }
  return { file, evaluated: report.evaluated, transitions: report.transitions };
}

function isTransition(value: unknown): value is BaselineReport['transitions'][number] {
  const t = value as Partial<ReportTransition> | null;
  return typeof t === 'object' && t !== null && OUTCOMES.includes(t.from as string) && OUTCOMES.includes(t.to as string) &&
    typeof t.count === 'number' && typeof t.share === 'number' && Array.isArray(t.rules) &&
    t.rules.every((pair) => typeof pair === 'object' && pair !== null && typeof pair.count === 'number' &&
      (pair.before === undefined || typeof pair.before === 'string') && (pair.after === undefined || typeof pair.after === 'string'));
}

function pairs(transitions: readonly ReportTransition[], evaluated: number): Map<string, PairCount> {
  const found = new Map<string, PairCount>();
  for (const t of transitions) {
    for (const pair of t.rules) {
      const key = JSON.stringify([t.from, t.to, pair.before ?? null, pair.after ?? null]);
      const known = found.get(key);
      const count = (known?.count ?? 0) + pair.count;
      found.set(key, { from: t.from, to: t.to, before: pair.before, after: pair.after, count, share: evaluated === 0 ? 0 : count / evaluated });
    }
  }
  return found;
}

/** What newly changes outcome and what stopped, by transition and rule pair, largest first. */
export function compareWithBaseline(report: { evaluated: number; transitions: readonly ReportTransition[] }, baseline: BaselineReport): BaselineComparison {
  const now = pairs(report.transitions, report.evaluated);
  const then = pairs(baseline.transitions, baseline.evaluated);
  const change = (current: PairCount | undefined, earlier: PairCount | undefined): BaselineChange => {
    const any = (current ?? earlier) as PairCount;
    return {
      from: any.from, to: any.to, before: any.before, after: any.after,
      count: current?.count ?? 0, share: current?.share ?? 0, baselineCount: earlier?.count ?? 0, baselineShare: earlier?.share ?? 0,
    };
  };
  const newly = [...now].filter(([key]) => !then.has(key)).map(([, pair]) => change(pair, undefined));
  const stopped = [...then].filter(([key]) => !now.has(key)).map(([, pair]) => change(undefined, pair));
  return { file: baseline.file, newly: newly.sort((a, b) => b.count - a.count), stopped: stopped.sort((a, b) => b.baselineCount - a.baselineCount) };
}
