// `replay --emit-sql` (docs/replay.md, "Where the traffic lives"): the app's live rules and the
// rules as apply would leave them, compiled as for a replay, printed as one SQL query over a
// table of request fields for the engine where the logs are. No log is read.
import { inPriorityOrder } from '../plan/fingerprint.js';
import { DIALECT, type DialectName } from '../replay/sql/dialects.js';
import { replayQuery, type EmittedQuery } from '../replay/sql/emit.js';
import type { Runtime } from '../runtime.js';
import { simulateSteps } from '../semantics/list-move.js';
import { compileProgram } from '../semantics/program.js';
import { planApps } from './plan-apps.js';
import { loadProject } from './project.js';
import { liveSnapshotSource, onlyApp, type ReplayRequest } from './replay.js';

interface EmitSqlRequest extends Omit<ReplayRequest, 'logs'> {
  dialect: DialectName;
  /** The table of request fields (default `requests`); dotted parts are quoted one by one. */
  table?: string;
}

export async function emitReplaySql(request: EmitSqlRequest, ctx: Runtime): Promise<EmittedQuery> {
  const usage = 'botrules replay --app NAME --emit-sql';
  const connect = request.liveFile === undefined ? undefined : (await liveSnapshotSource(request.liveFile, ctx.cwd)).source;
  const { live, plan } = onlyApp(await planApps(await loadProject(request, ctx.cwd), request, ctx, connect), usage);
  const after = plan.steps.length === 0 ? inPriorityOrder(live) : simulateSteps(live, plan.steps);
  return replayQuery(compileProgram([inPriorityOrder(live), after]), DIALECT[request.dialect], request.table ?? 'requests');
}
