// `botrules emulator console create NAME [--paused] [--position N]` and `… delete RULE`: what a
// person does in the service's web console, rehearsed against a running emulator (docs/behaviour.md,
// "The console"). The service API cannot create or delete rules; the emulator serves these on a
// path of its own, for the app whose token BOTRULES_TOKEN (or the app's tokenEnv) holds.
import type { Argv } from 'yargs';
import { createConsoleRule, deleteConsoleRule } from '../../emulator/console-client.js';
import { UserError } from '../../errors.js';
import { CONSOLE_ACTION } from '../../render/emulator/index.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import type { ArgsOf } from '../define-command.js';
import { wholeNumber } from '../options.js';
import { writeReport } from '../output.js';
import { EXIT, type ExitCode } from '../../exit-codes.js';
import { definedFields } from '../../defined.js';

export function consoleOptions(yargs: Argv<GlobalArgs>) {
  return yargs
    .positional('action', { choices: ['create', 'delete'] as const, demandOption: true, describe: 'create a rule by name, or delete one by ruleId or name' })
    .positional('rule', { type: 'string', demandOption: true, describe: 'create: the new rule\'s name; delete: its ruleId or name' })
    .option('paused', { type: 'boolean', default: false, describe: 'create: save it paused (a console rule is live as soon as it is saved)' })
    .option('position', { type: 'number', requiresArg: true, coerce: wholeNumber('--position', 1), describe: 'create: its console position, 1 = first (default: last)' })
    .option('token-env', { type: 'string', default: 'BOTRULES_TOKEN', describe: 'The variable holding the token of the app to act on' })
    .example('$0 emulator console create "Block scrapers" --paused --position 3', 'what the plan asks for when a declared rule is not live')
    .example('$0 emulator console delete "Old rule"', 'what removing a rule from the service takes');
}

export async function runConsole(args: ArgsOf<typeof consoleOptions>, ctx: CommandContext): Promise<ExitCode> {
  const consoleUrl = ctx.env('BOTRULES_CONSOLE_URL');
  const { tokenEnv } = args;
  const token = ctx.env(tokenEnv);
  if (consoleUrl === undefined) throw new UserError('BOTRULES_CONSOLE_URL is not set: paste the export lines `botrules emulator` printed');
  if (token === undefined) throw new UserError(`${tokenEnv} is not set: the console acts for the app whose token it holds`);
  const target = { consoleUrl, token };
  const { rule } = args;
  if (args.action === 'create') {
    const created = await createConsoleRule(target, {
      name: rule,
      status: args.paused ? 'paused' : 'active',
      ...definedFields({ position: args.position }),
    });
    await writeReport(CONSOLE_ACTION, { action: 'create', rule: created }, ctx);
    return EXIT.ok;
  }
  const deleted = await deleteConsoleRule(target, rule);
  await writeReport(CONSOLE_ACTION, { action: 'delete', rule: deleted }, ctx);
  return EXIT.ok;
}
