// `botrules import [--out DIR] [--force]`: write the live rules as rule files, one per rule,
// in live order, with their ruleId. Each selected app goes to its own rules directory, or
// one app to --out. Existing rule files are never overwritten without --force, and the
// refusal comes before any request.
import type { Argv } from 'yargs';
import { importRules } from '../../engine/import.js';
import { IMPORT_OUTPUT } from '../../render/import/index.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { UsageError } from '../options.js';
import { runUpdate, UPDATE_FORMATS } from './import-update.js';
import { reportInTurn, writeReport } from '../output.js';
import { defineCommand, type ArgsOf } from '../define-command.js';
import { EXIT, type ExitCode } from '../../exit-codes.js';
import { definedFields } from '../../defined.js';

function options(yargs: Argv<GlobalArgs>) {
  // No defaults on --force, --update, --prune and --dry-run: yargs counts an option with a
  // default as given, and `conflicts`/`implies` must see only what the user wrote.
  return yargs
    .option('out', { type: 'string', describe: "Directory to write the rule files to (default: the app's rules directory)" })
    .option('force', { type: 'boolean', describe: 'Replace the rule files already in the directory' })
    .option('update', {
      type: 'boolean',
      conflicts: ['force', 'out'],
      describe: 'Edit the existing rule files in place so they declare the live rules, changing only what differs (not with --force or --out: the files stay where they are)',
    })
    .option('prune', { type: 'boolean', implies: 'update', describe: 'With --update: remove declared rules that no longer exist live' })
    .option('dry-run', { type: 'boolean', implies: 'update', describe: 'With --update: print the whole change of every file instead of writing (rules gone live included)' })
    .option('pin', {
      type: 'boolean',
      implies: 'update',
      conflicts: 'prune',
      describe: 'With --update: only write the ruleId of declared rules matched by name (after creating a rule in the console); nothing else changes',
    })
    .option('format', { choices: UPDATE_FORMATS, implies: 'dry-run', describe: 'With --dry-run: diff (a unified diff per file, the default) or json-patch (RFC 6902 operations per file)' })
    // `implies` asks only that --update be given: `--prune --no-update` would pass it.
    .check((argv) => {
      if (argv.update === false && (argv.prune === true || argv.dryRun === true || argv.pin === true)) throw new UsageError('--prune, --dry-run and --pin need --update, not --no-update');
      return true;
    })
    .example('$0 import', 'write the live rules of every app into its rules directory')
    .example('$0 import --app shop --out rules/shop --force', 'replace the rule files of app shop')
    .example('$0 import --update --dry-run', 'show how the rule files would change to declare the live rules')
    .example('$0 import --update --pin', 'pin the ruleId of a rule just created in the console, changing nothing else')
    .example('$0 import --update --dry-run --format json-patch', 'the same change as RFC 6902 JSON Patch operations per file');
}

async function runCommand(args: ArgsOf<typeof options>, ctx: CommandContext): Promise<ExitCode> {
  if (args.update === true) return runUpdate(args, ctx);
  // Each app's line as soon as its files are written, so a later app's failure keeps it.
  const perApp = reportInTurn(IMPORT_OUTPUT, ctx);
  try {
    await importRules({ ...args, ...definedFields({ outDir: args.out }), force: args.force === true }, ctx, (imported) => perApp.write({ kind: 'app', imported }));
  } finally {
    await perApp.written();
  }
  await writeReport(IMPORT_OUTPUT, { kind: 'done' }, ctx);
  return EXIT.ok;
}

export const { builder, run } = defineCommand({ builder: options, run: runCommand });
