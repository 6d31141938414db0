// `botrules import --update [--prune] [--dry-run [--format diff|json-patch]]`: bring the live
// rules back into the existing rule files, changing only what differs (docs/behaviour.md,
// "import --update"). A dry run prints a unified diff per file, or with `--format json-patch`
// one JSON document holding each file's RFC 6902 operations (the summary then goes to stderr).
import { createTwoFilesPatch } from 'diff';
import { updateFromLive, type UpdateResult } from '../../engine/import-update.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { safeJson, safeText } from '../../render/sanitise.js';
import { plural } from '../../plural.js';

export const UPDATE_FORMATS = ['diff', 'json-patch'] as const;

interface FilePatchJson {
  app: string;
  file: string;
  change: 'edit' | 'create' | 'delete';
  operations: unknown[];
}

/** The options of `import --update` (import.ts declares them). */
export interface UpdateArgs extends GlobalArgs {
  dryRun?: boolean;
  prune?: boolean;
  pin?: boolean;
  format?: (typeof UPDATE_FORMATS)[number];
}

export async function runUpdate(args: UpdateArgs, ctx: CommandContext): Promise<number> {
  const dryRun = args.dryRun === true;
  const prune = args.prune === true;
  const jsonPatch = dryRun && args.format === 'json-patch';
  const patches: FilePatchJson[] = [];
  const summary = jsonPatch ? ctx.io.stderr : ctx.io.stdout;
  await updateFromLive({ ...args, prune, dryRun, pin: args.pin === true }, ctx, ({ app, dir, result }) => {
    if (jsonPatch) patches.push(...patchesOf(app, dir, result));
    else if (dryRun) printDiff(ctx, dir, result);
    printSummary((line) => void summary.write(`${safeText(line)}\n`), { app, dir, result, dryRun, prune, pin: args.pin === true });
  });
  // Names and values come from live rules: characters that move a terminal's text are escaped (docs/security.md).
  if (jsonPatch) ctx.io.stdout.write(`${safeJson(JSON.stringify({ files: patches }, null, 2))}\n`);
  return 0;
}

function patchesOf(app: string, dir: string, result: UpdateResult): FilePatchJson[] {
  return result.changes.map((change) => ({
    app,
    file: `${dir}/${change.rel}`,
    change: change.before === undefined ? 'create' : change.after === undefined ? 'delete' : 'edit',
    operations: change.operations,
  }));
}

function printDiff(ctx: CommandContext, dir: string, result: UpdateResult): void {
  for (const change of result.changes) {
    const name = `${dir}/${change.rel}`;
    const patch = createTwoFilesPatch(change.before === undefined ? '/dev/null' : `a/${name}`, change.after === undefined ? '/dev/null' : `b/${name}`, change.before ?? '', change.after ?? '', undefined, undefined, { context: 3 });
    // File contents and names come from live rules: each line made safe (docs/security.md). A CRLF
    // file's CR ends every line and stays the file's own (src/import/update/text.ts): shown, it would be noise.
    ctx.io.stdout.write(patch.split('\n').slice(1).map((line) => safeText(line.replace(/\r$/, ''))).join('\n'));
  }
}

interface Summary {
  app: string;
  dir: string;
  result: UpdateResult;
  dryRun: boolean;
  prune: boolean;
  /** import --update --pin: only ruleIds were written. */
  pin: boolean;
}

function printSummary(out: (line: string) => void, { app, dir, result, dryRun, prune, pin }: Summary): void {
  const verb = dryRun ? 'would' : 'did';
  for (const rule of result.gone) {
    if (dryRun && !prune) out(`would remove rule "${rule.name}" from ${rule.source.file} (gone live; writing this needs --prune)`);
    else out(`removed rule "${rule.name}" from ${rule.source.file} (gone live)`);
  }
  for (const { rule, fields } of result.edited) out(pin ? `pinned rule "${rule.name}" to ruleId ${rule.ruleId}` : `updated rule "${rule.name}" (${fields.join(', ')})`);
  for (const p of result.placements) {
    const where = `${dir}/${p.rel}`;
    out(`${p.kind} rule "${p.rule.name}" ${p.createdFile ? `in a new file ${where}` : `in ${where}`}`);
  }
  const files = result.changes.length;
  if (files === 0) out(`App ${app}: the rule files in ${dir} already declare the live rules.`);
  else out(`App ${app}: ${dryRun ? `${verb} change` : 'changed'} ${plural(files, 'file')} in ${dir}.${dryRun ? ' (dry run: nothing written)' : ` Run botrules plan to check: ${pin ? 'it shows the changes left to make' : 'it should show no changes'}.`}`);
}
