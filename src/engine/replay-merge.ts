// `replay merge REPORT.json…` (docs/replay.md, "Shards"): the JSON reports of replays over
// disjoint parts of a log, in log order, as the report of one replay of all of it. Every report
// is read and checked before any is merged: a bad one is an error naming it, never half a merge.
import { compareWithBaseline, readBaseline } from '../replay/baseline.js';
import { mergeReports } from '../replay/merge.js';
import { readShardReport } from '../replay/shard-report.js';
import type { ReplayReport } from '../replay/tally.js';
import type { Runtime } from '../runtime.js';

interface MergeRequest {
  /** The shards' reports, as the user named them, in log order. */
  reports: readonly string[];
  /** An earlier report to compare the merged one with, as `replay --baseline` does. */
  baseline?: string;
}

export async function mergeReplayReports(request: MergeRequest, ctx: Pick<Runtime, 'cwd'>): Promise<ReplayReport> {
  const shards = [];
  for (const source of request.reports) shards.push({ source, report: await readShardReport(source, ctx.cwd) });
  const baseline = request.baseline === undefined ? undefined : await readBaseline(request.baseline, ctx.cwd);
  const merged = mergeReports(shards);
  if (baseline !== undefined) merged.baseline = compareWithBaseline(merged, baseline);
  return merged;
}
