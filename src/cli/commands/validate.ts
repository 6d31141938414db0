// `botrules validate`: schema and semantic checks of every rule file of every app; no network.
// Problems are thrown as one ValidationError; the top-level handler prints each as
// FILE:LINE:COL (and as GitHub annotations on Actions).
import type { Argv } from 'yargs';
import { ValidationError } from '../../errors.js';
import { loadProjectConfig } from '../../rules/config.js';
import { loadAllRules } from '../../rules/load.js';
import type { CommandContext, GlobalArgs } from '../context.js';

export function builder(yargs: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return yargs.usage('$0 validate [--dir rules] [--config botrules.yaml] [--app NAME]\n\nCheck every rule file (schema and semantics); no network.');
}

export async function run(args: GlobalArgs, ctx: CommandContext): Promise<number> {
  const cwd = ctx.io.cwd;
  const config = await loadProjectConfig({ cwd, ...pick(args) });
  ctx.debug(config.file ? `config: ${config.file}` : 'config: none (one app "default")');
  const { byApp, problems } = await loadAllRules(config, { cwd, allowEmpty: args.allowEmpty === true });
  if (problems.length > 0) throw new ValidationError(problems);

  let files = 0;
  let rules = 0;
  for (const [app, loaded] of byApp) {
    ctx.debug(`app ${app}: ${loaded.files.length} files, ${loaded.rules.length} rules`);
    files += loaded.files.length;
    rules += loaded.rules.length;
  }
  const apps = byApp.size > 1 ? `${byApp.size} apps, ` : '';
  ctx.io.stdout.write(`${apps}${plural(files, 'file')}, ${plural(rules, 'rule')}: valid\n`);
  return 0;
}

function pick(args: GlobalArgs): { config?: string; dir?: string; app?: string } {
  return {
    ...(args.config === undefined ? {} : { config: args.config }),
    ...(args.dir === undefined ? {} : { dir: args.dir }),
    ...(args.app === undefined ? {} : { app: args.app }),
  };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
