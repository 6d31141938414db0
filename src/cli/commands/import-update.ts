// `botrules import --update [--prune] [--dry-run]`: bring the live rules back into the
// existing rule files, changing only what differs (docs/behaviour.md, "import --update").
import { createTwoFilesPatch } from 'diff';
import { updateFromLive, type UpdateResult } from '../../engine/import-update.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { safeText } from '../../render/sanitise.js';

export async function runUpdate(args: GlobalArgs & Record<string, unknown>, ctx: CommandContext): Promise<number> {
  const dryRun = args['dry-run'] === true;
  await updateFromLive({ ...args, prune: args.prune === true, dryRun, pin: args.pin === true }, ctx, ({ app, dir, result }) => {
    if (dryRun) printDiff(ctx, dir, result);
    printSummary(ctx, app, dir, result, dryRun, args.pin === true);
  });
  return 0;
}

function printDiff(ctx: CommandContext, dir: string, result: UpdateResult): void {
  for (const change of result.changes) {
    const name = `${dir}/${change.rel}`;
    const patch = createTwoFilesPatch(change.before === undefined ? '/dev/null' : `a/${name}`, change.after === undefined ? '/dev/null' : `b/${name}`, change.before ?? '', change.after ?? '', undefined, undefined, { context: 3 });
    // File contents and names come from live rules: each line made safe (docs/security.md).
    ctx.io.stdout.write(patch.split('\n').slice(1).map(safeText).join('\n'));
  }
}

function printSummary(ctx: CommandContext, app: string, dir: string, result: UpdateResult, dryRun: boolean, pin: boolean): void {
  const out = (line: string): void => void ctx.io.stdout.write(`${safeText(line)}\n`);
  const verb = dryRun ? 'would' : 'did';
  for (const rule of result.gone) out(`removed rule "${rule.name}" from ${rule.source.file} (gone live)`);
  for (const { rule, fields } of result.edited) out(pin ? `pinned rule "${rule.name}" to ruleId ${rule.ruleId}` : `updated rule "${rule.name}" (${fields.join(', ')})`);
  for (const p of result.placements) {
    const where = `${dir}/${p.rel}`;
    out(`${p.kind} rule "${p.rule.name}" ${p.createdFile ? `in a new file ${where}` : `in ${where}`}`);
  }
  const files = result.changes.length;
  if (files === 0) out(`App ${app}: the rule files in ${dir} already declare the live rules.`);
  else out(`App ${app}: ${dryRun ? `${verb} change` : 'changed'} ${files} file${files === 1 ? '' : 's'} in ${dir}.${dryRun ? ' (dry run: nothing written)' : ` Run botrules plan to check: ${pin ? 'it shows the changes left to make' : 'it should show no changes'}.`}`);
}
