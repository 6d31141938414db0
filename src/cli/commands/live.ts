// `botrules live [--out FILE]`: list every app's live rules once and write them as a live
// snapshot (docs/behaviour.md, "Live snapshots"). Trusted jobs on the default branch keep
// it as an artifact, so pull-request jobs can plan with `plan --live FILE` and no token.
import { checkWritable } from '../../files/write.js';
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { rulesClientFor } from '../../api/index.js';
import { loadProjectConfig } from '../../rules/config.js';
import { takeSnapshot } from '../../live/snapshot.js';
import { writeSnapshotFile } from '../../live/file.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { safeJson, safeText } from '../../render/sanitise.js';

export function builder(yargs: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return yargs
    .option('out', { type: 'string', describe: 'Write the snapshot to FILE (default: standard output)' })
    .example('$0 live --out live.json', 'snapshot the live rules of every app')
    .example('$0 plan --live live.json', 'plan against it, with no token and no request') as unknown as Argv<GlobalArgs>;
}

export async function run(args: GlobalArgs & Record<string, unknown>, ctx: CommandContext): Promise<number> {
  const config = await loadProjectConfig({ cwd: ctx.io.cwd, config: args.config, dir: args.dir, app: args.app });
  if (typeof args.out === 'string') await checkWritable(resolve(ctx.io.cwd, args.out), '--out', args.out);
  // Every token is checked before the first request.
  const clients = config.apps.map((app) => ({ app: app.name, api: rulesClientFor(app, ctx) }));
  const lists = await Promise.all(clients.map(async ({ app, api }) => ({ app, rules: await api.listRules() })));
  const snapshot = takeSnapshot(lists, new Date());
  if (typeof args.out !== 'string') {
    ctx.io.stdout.write(`${safeJson(JSON.stringify(snapshot, null, 2))}\n`);
    return 0;
  }
  await writeSnapshotFile(resolve(ctx.io.cwd, args.out), snapshot, args.out);
  const rules = lists.reduce((sum, list) => sum + list.rules.length, 0);
  ctx.io.stderr.write(`Live snapshot of ${lists.length} app${lists.length === 1 ? '' : 's'} (${rules} rule${rules === 1 ? '' : 's'}) saved to ${safeText(String(args.out))}; plan against it with: botrules plan --live ${safeText(String(args.out))}\n`);
  return 0;
}
