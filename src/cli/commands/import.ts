// `botrules import [--out DIR] [--force]`: write the live rules as rule files, one per rule,
// in live order, with their ruleId. Each selected app goes to its own rules directory, or
// one app to --out. Existing rule files are never overwritten without --force, and the
// refusal comes before any request.
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { UserError } from '../../errors.js';
import { rulesClientFor } from '../../api/index.js';
import { loadProjectConfig, type AppConfig } from '../../rules/config.js';
import { displayPath } from '../../rules/display-path.js';
import { existingRuleFiles, refuseForeignYaml, removeRuleFiles, writeRuleFiles } from '../../import/write.js';
import { safeText } from '../../render/sanitise.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { runUpdate } from './import-update.js';

export function builder(yargs: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return yargs
    .option('out', { type: 'string', describe: "Directory to write the rule files to (default: the app's rules directory)" })
    .option('force', { type: 'boolean', default: false, describe: 'Replace the rule files already in the directory' })
    .option('update', { type: 'boolean', default: false, describe: 'Edit the existing rule files in place so they declare the live rules, changing only what differs' })
    .option('prune', { type: 'boolean', default: false, describe: 'With --update: remove declared rules that no longer exist live' })
    .option('dry-run', { type: 'boolean', default: false, describe: 'With --update: print the diff of every file instead of writing' })
    .example('$0 import', 'write the live rules of every app into its rules directory')
    .example('$0 import --app shop --out rules/shop --force', 'replace the rule files of app shop')
    .example('$0 import --update --dry-run', 'show how the rule files would change to declare the live rules') as unknown as Argv<GlobalArgs>;
}

interface Target {
  app: AppConfig;
  dir: string;
  existing: string[];
}

export async function run(args: GlobalArgs & Record<string, unknown>, ctx: CommandContext): Promise<number> {
  if (args.update === true && (args.force === true || args.out !== undefined)) {
    throw new UserError('--update edits the rule files where they are: it goes with neither --force nor --out');
  }
  if (args.update === true) return runUpdate(args, ctx);
  if (args.prune === true || args['dry-run'] === true) throw new UserError('--prune and --dry-run go with --update');
  const out = typeof args.out === 'string' ? args.out : undefined;
  const force = args.force === true;
  const cwd = ctx.io.cwd;
  const config = await loadProjectConfig({ cwd, config: args.config, dir: args.dir, app: args.app });
  if (out !== undefined && config.apps.length > 1) {
    throw new UserError(`--out writes one app, but the config has ${config.apps.length}: ${config.apps.map((a) => a.name).join(', ')}`, [
      'Name the app with --app, or leave out --out to write each app into its own rules directory.',
    ]);
  }
  const targets: Target[] = await Promise.all(
    config.apps.map(async (app) => {
      const dir = out === undefined ? app.rulesDir : resolve(cwd, out);
      return { app, dir, existing: await existingRuleFiles(dir) };
    }),
  );
  if (!force) refuseToOverwrite(targets, cwd);
  else for (const target of targets) await refuseForeignYaml(target.existing, (file) => displayPath(cwd, file));

  const clients = targets.map((t) => rulesClientFor(t.app, ctx));
  const lives = await Promise.all(clients.map((client) => client.listRules()));
  for (const [index, target] of targets.entries()) {
    const live = lives[index] ?? [];
    await removeRuleFiles(target.existing);
    const written = await writeRuleFiles(target.dir, live);
    const where = displayPath(cwd, target.dir);
    const replaced = target.existing.length > 0 ? ` (replacing ${target.existing.length} old rule file${target.existing.length === 1 ? '' : 's'})` : '';
    ctx.io.stdout.write(`Imported ${live.length} rule${live.length === 1 ? '' : 's'} of app ${safeText(target.app.name)} into ${safeText(where)} as ${written.length} file${written.length === 1 ? '' : 's'}${replaced}.\n`);
  }
  ctx.io.stdout.write('Run botrules plan to check: it should show no changes.\n');
  return 0;
}

function refuseToOverwrite(targets: readonly Target[], cwd: string): void {
  const occupied = targets.filter((t) => t.existing.length > 0);
  if (occupied.length === 0) return;
  const files = occupied.flatMap((t) => t.existing.map((file) => `  ${displayPath(cwd, file)}`));
  throw new UserError(`refusing to overwrite ${files.length} existing rule file${files.length === 1 ? '' : 's'}:`, [
    ...files,
    'Use --force to replace them (only *.yaml and *.yml files are removed), or --out to write elsewhere.',
  ]);
}
