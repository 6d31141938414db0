// `import --update`: the live rules brought back into the existing rule files, changing only
// what differs (docs/behaviour.md, "import --update"). Nothing is written when a declared rule
// is gone live and `prune` is off, nor on a dry run (which shows the whole change, removals
// included, whether or not `prune` is on).
import { rulesClientFor } from '../api/index.js';
import { UserError } from '../errors.js';
import { readAppFiles, writeChanges } from '../import/update/files.js';
import { updateRuleFiles, type UpdateResult } from '../import/update/index.js';
import { pinRuleIds } from '../import/update/pin.js';
import { schemaReference, schemaReferenceIn } from '../import/rule-file.js';
import { loadProject } from './project.js';
import { displayPath } from '../rules/display-path.js';
import type { ProjectSelection, Runtime } from '../runtime.js';
import { liveAsLifetimesDeclare } from '../semantics/lifetime.js';
import { plural } from '../plural.js';


interface UpdateRequest extends ProjectSelection {
  /** Remove declared rules that no longer exist live. */
  prune: boolean;
  /** Work out the changes without writing them. */
  dryRun: boolean;
  /** Only write the ruleId of declared rules matched by name (import --update --pin). */
  pin?: boolean;
}

interface UpdatedApp {
  app: string;
  /** The app's rules directory, as shown to the user. */
  dir: string;
  result: UpdateResult;
}

/** Updates every selected app; `onUpdated` hears of each app once its files are written (or would be). */
export async function updateFromLive(request: UpdateRequest, ctx: Runtime, onUpdated: (app: UpdatedApp) => void): Promise<void> {
  const { cwd } = ctx;
  const config = await loadProject(request, cwd);
  const now = request.now ?? Date.now();
  const apps = await Promise.all(config.apps.map(async (app) => ({ app, ...(await readAppFiles(app.rulesDir, cwd, now)) })));
  const lives = await Promise.all(apps.map(({ app }) => rulesClientFor(app, ctx).listRules()));
  const results = apps.map((app, index) => {
    // New files name the schema the app's files already name (their modeline is the user's), or the installed package's.
    const schema = app.files.map((file) => schemaReferenceIn(file.text)).find((reference) => reference !== undefined) ?? schemaReference(app.app.rulesDir, cwd);
    const input = { files: app.files, declared: app.declared, live: liveAsLifetimesDeclare(lives[index] ?? [], app.declared), schema };
    return { ...app, result: request.pin === true ? pinRuleIds(input) : updateRuleFiles(input) };
  });

  // A dry run shows the whole change, removals included; only writing it needs --prune.
  const gone = results.flatMap(({ result }) => result.gone);
  if (gone.length > 0 && !request.prune && !request.dryRun) {
    throw new UserError(`${plural(gone.length, 'declared rule does', 'declared rules do')} not exist live:`, [
      ...gone.map((rule) => `  ${rule.source.file}:${rule.source.line}:${rule.source.col}: "${rule.name}"`),
      'Nothing was written. Use --prune to remove them from the files, or create them in the console.',
    ]);
  }
  for (const { app, result } of results) {
    if (!request.dryRun) await writeChanges(app.rulesDir, result.changes);
    onUpdated({ app: app.name, dir: displayPath(cwd, app.rulesDir), result });
  }
}
