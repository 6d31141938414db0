// `botrules import --update [--prune] [--dry-run]`: bring the live rules back into the
// existing rule files, changing only what differs (docs/behaviour.md, "import --update").
import { createTwoFilesPatch } from 'diff';
import { UserError } from '../../errors.js';
import { rulesClientFor } from '../../api/index.js';
import { loadProjectConfig } from '../../rules/config.js';
import { displayPath } from '../../rules/display-path.js';
import { updateRuleFiles, type UpdateResult } from '../../import/update/index.js';
import { readAppFiles, writeChanges } from '../../import/update/files.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { safeText } from '../../render/sanitise.js';

export async function runUpdate(args: GlobalArgs & Record<string, unknown>, ctx: CommandContext): Promise<number> {
  const cwd = ctx.io.cwd;
  const prune = args.prune === true;
  const dryRun = args['dry-run'] === true;
  const config = await loadProjectConfig({ cwd, config: args.config, dir: args.dir, app: args.app });
  const apps = await Promise.all(config.apps.map(async (app) => ({ app, ...(await readAppFiles(app.rulesDir, cwd)) })));
  const lives = await Promise.all(apps.map(({ app }) => rulesClientFor(app, ctx).listRules()));
  const results = apps.map((app, index) => ({ ...app, result: updateRuleFiles({ files: app.files, declared: app.declared, live: lives[index] ?? [] }) }));

  const gone = results.flatMap(({ result }) => result.gone);
  if (gone.length > 0 && !prune) {
    throw new UserError(`${gone.length} declared rule${gone.length === 1 ? ' does' : 's do'} not exist live:`, [
      ...gone.map((rule) => `  ${rule.source.file}:${rule.source.line}:${rule.source.col}: "${rule.name}"`),
      'Nothing was written. Use --prune to remove them from the files, or create them in the console.',
    ]);
  }
  for (const { app, result } of results) {
    const dir = displayPath(cwd, app.rulesDir);
    if (dryRun) printDiff(ctx, dir, result);
    else await writeChanges(app.rulesDir, result.changes);
    printSummary(ctx, app.name, dir, result, dryRun);
  }
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

function printSummary(ctx: CommandContext, app: string, dir: string, result: UpdateResult, dryRun: boolean): void {
  const out = (line: string): void => void ctx.io.stdout.write(`${safeText(line)}\n`);
  const verb = dryRun ? 'would' : 'did';
  for (const rule of result.gone) out(`removed rule "${rule.name}" from ${rule.source.file} (gone live)`);
  for (const { rule, fields } of result.edited) out(`updated rule "${rule.name}" (${fields.join(', ')})`);
  for (const p of result.placements) {
    const where = `${dir}/${p.rel}`;
    out(`${p.kind} rule "${p.rule.name}" ${p.createdFile ? `in a new file ${where}` : `in ${where}`}`);
  }
  const files = result.changes.length;
  if (files === 0) out(`App ${app}: the rule files in ${dir} already declare the live rules.`);
  else out(`App ${app}: ${dryRun ? `${verb} change` : 'changed'} ${files} file${files === 1 ? '' : 's'} in ${dir}.${dryRun ? ' (dry run: nothing written)' : ' Run botrules plan to check: it should show no changes.'}`);
}
