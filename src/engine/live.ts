// `live`: every selected app's live rules listed once, as a live snapshot, written to a file
// when one is named (docs/behaviour.md, "Live snapshots").
import { resolve } from 'node:path';
import { rulesClientFor } from '../api/index.js';
import { checkWritable } from '../io/atomic-write.js';
import { writeLiveSnapshotFile } from '../live/file.js';
import { takeSnapshot, type LiveSnapshot, type RecordedRule } from '../live/snapshot.js';
import { loadProject } from './project.js';
import type { ProjectSelection, Runtime } from '../runtime.js';

interface LiveRequest extends ProjectSelection {
  /** Where to save the snapshot; the caller shows it otherwise. */
  outFile?: string;
}

interface TakenSnapshot {
  snapshot: LiveSnapshot<RecordedRule>;
  /** Rules across all apps. */
  rules: number;
}

export async function takeLiveSnapshot(request: LiveRequest, ctx: Runtime, now: () => Date = () => new Date()): Promise<TakenSnapshot> {
  const config = await loadProject(request, ctx.cwd);
  const out = request.outFile;
  if (out !== undefined) await checkWritable(resolve(ctx.cwd, out), '--out', out);
  // Every token is checked before the first request.
  const clients = config.apps.map((app) => ({ app: app.name, api: rulesClientFor(app, ctx) }));
  const lists = await Promise.all(clients.map(async ({ app, api }) => ({ app, rules: await api.listRules() })));
  const snapshot = takeSnapshot(lists, now());
  if (out !== undefined) await writeLiveSnapshotFile(resolve(ctx.cwd, out), snapshot, out);
  return { snapshot, rules: lists.reduce((sum, list) => sum + list.rules.length, 0) };
}
