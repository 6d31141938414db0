// `replay`: request logs decided under the live rules (listed now, or a snapshot) and under
// the rules as they will be once the plan has run, the same "before" and "after" as the plan's
// behaviour diff (docs/replay.md). Logs are streamed: memory does not grow with their length.
import { resolve } from 'node:path';
import { UserError } from '../errors.js';
import { inPriorityOrder } from '../plan/fingerprint.js';
import { simulateSteps } from '../plan/simulate.js';
import type { LiveRule } from '../rules/model.js';
import type { ProjectSelection, Runtime } from '../runtime.js';
import { compileRules } from '../traffic/compiled.js';
import type { LogFormat } from '../traffic/formats.js';
import { logFiles, readLog } from '../traffic/read.js';
import { ReplayTally, type ReplayReport } from '../traffic/tally.js';
import { planApps, type ConnectApp } from './plan-apps.js';

export type { ReplayReport } from '../traffic/tally.js';

export interface ReplayRequest extends ProjectSelection {
  /** Log files and directories, as the user named them. */
  logs: string[];
  /** A live snapshot (botrules live --out) for "before" instead of listing: no token, no request. */
  liveFile?: string;
  /** One format for every log; else told per file. */
  logFormat?: LogFormat;
}

export async function replayProject(request: ReplayRequest, ctx: Runtime): Promise<ReplayReport> {
  const files = await logFiles(request.logs, ctx.cwd);
  if (files.length === 0) throw new UserError('the logs named hold no files to replay');
  const connect = request.liveFile === undefined ? undefined : await snapshotSource(request.liveFile, ctx.cwd);
  const planned = await planApps(request, ctx, connect);
  if (planned.length !== 1) {
    throw new UserError(`replay decides a log under one app's rules, and ${planned.length} apps are selected`, [
      'Name the app the log belongs to: botrules replay --app NAME LOG…',
    ]);
  }
  const [{ app, live, plan }] = planned as [typeof planned[number]];
  const before = compileRules<LiveRule>(inPriorityOrder(live));
  const after = compileRules<LiveRule>(plan.steps.length === 0 ? inPriorityOrder(live) : simulateSteps(live, plan.steps));
  const tally = new ReplayTally();
  const started = performance.now();
  for (const file of files) {
    for await (const batch of readLog(file, { cwd: ctx.cwd, ...(request.logFormat === undefined ? {} : { format: request.logFormat }) })) {
      for (const { line, result } of batch) {
        if ('skip' in result) tally.skip(result.skip, file, line);
        else tally.add({ file, line, request: result.request }, before.decide(result.request), after.decide(result.request));
      }
    }
  }
  const against = request.liveFile === undefined ? 'the live rules' : `the live snapshot ${JSON.stringify(request.liveFile)}`;
  const report = tally.report({ app: app.name, against, files, notApplied: plan.blocked.map((rule) => rule.name) });
  ctx.debug(`replayed ${report.read} log lines in ${Math.round(performance.now() - started)} ms`);
  return report;
}

/** Loaded only for --live, as plan does. */
async function snapshotSource(file: string, cwd: string): Promise<ConnectApp> {
  const [{ readSnapshotFile }, live] = await Promise.all([import('../live/file.js'), import('../live/snapshot.js')]);
  return live.snapshotSource(await readSnapshotFile(resolve(cwd, file), file), file);
}
