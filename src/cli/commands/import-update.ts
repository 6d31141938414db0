// `botrules import --update [--prune] [--dry-run [--format diff|json-patch]]`: bring the live
// rules back into the existing rule files, changing only what differs (docs/behaviour.md,
// "import --update"). What it prints is src/render/import/update.ts's.
import { updateFromLive } from '../../engine/import-update.js';
import { UPDATE_FORMATS, UPDATE_OUTPUTS, type AppUpdateView } from '../../render/import/update.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { reportInTurn, writeReport } from '../output.js';
import { EXIT, type ExitCode } from '../../exit-codes.js';

export { UPDATE_FORMATS };

/** The options of `import --update` (import.ts declares them). */
interface UpdateArgs extends GlobalArgs {
  dryRun?: boolean;
  prune?: boolean;
  pin?: boolean;
  format?: (typeof UPDATE_FORMATS)[number];
}

export async function runUpdate(args: UpdateArgs, ctx: CommandContext): Promise<ExitCode> {
  const dryRun = args.dryRun === true;
  const prune = args.prune === true;
  const pin = args.pin === true;
  const output = UPDATE_OUTPUTS[dryRun ? args.format ?? 'diff' : 'summary'];
  const updates: AppUpdateView[] = [];
  // Each app's lines as soon as its files are written, so a later app's failure keeps them.
  const perApp = reportInTurn(output, ctx);
  try {
    await updateFromLive({ ...args, prune, dryRun, pin }, ctx, ({ app, dir, result }) => {
      const update = { app, dir, result, dryRun, prune, pin };
      updates.push(update);
      perApp.write({ kind: 'app', update });
    });
  } finally {
    await perApp.written();
  }
  await writeReport(output, { kind: 'done', updates }, ctx);
  return EXIT.ok;
}
