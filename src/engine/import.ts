// `import`: the live rules written as rule files, one per rule, in live order, with their
// ruleId; each selected app into its own rules directory, or one app into `outDir`. Existing
// rule files are never overwritten without `force`, and the refusal comes before any request
// (docs/behaviour.md, "Commands").
import { resolve } from 'node:path';
import { rulesClientFor } from '../api/index.js';
import { UserError } from '../errors.js';
import { existingRuleFiles, refuseForeignYaml, removeRuleFiles, writeRuleFiles } from '../import/write.js';
import { schemaReference } from '../import/rule-file.js';
import type { AppConfig } from '../rules/config.js';
import { loadProject } from './project.js';
import { displayPath } from '../rules/display-path.js';
import type { ProjectSelection, Runtime } from '../runtime.js';
import { plural } from '../plural.js';
import type { ImportedApp } from '../render/import/index.js';

interface ImportRequest extends ProjectSelection {
  /** One app's rules into this directory instead of its rules directory. */
  outDir?: string;
  /** Replace the rule files already there. */
  force: boolean;
}

interface Target {
  app: AppConfig;
  dir: string;
  existing: string[];
}

/** Imports every selected app; `onImported` hears of each app as soon as its files are written. */
export async function importRules(request: ImportRequest, ctx: Runtime, onImported: (app: ImportedApp) => void): Promise<void> {
  const { cwd } = ctx;
  const out = request.outDir;
  const config = await loadProject(request, cwd);
  if (out !== undefined && config.apps.length > 1) {
    throw new UserError(`--out writes one app, but the config has ${config.apps.length}: ${config.apps.map((a) => a.name).join(', ')}`, [
      'Name the app with --app, or leave out --out to write each app into its own rules directory.',
    ]);
  }
  const targets: Target[] = await Promise.all(
    config.apps.map(async (app) => {
      const dir = out === undefined ? app.rulesDir : resolve(cwd, out);
      return { app, dir, existing: await existingRuleFiles(dir, cwd) };
    }),
  );
  if (!request.force) refuseToOverwrite(targets, cwd);
  else for (const target of targets) await refuseForeignYaml(target.existing, (file) => displayPath(cwd, file));

  const clients = targets.map((t) => rulesClientFor(t.app, ctx));
  const lives = await Promise.all(clients.map((client) => client.listRules()));
  for (const [index, target] of targets.entries()) {
    const live = lives[index] ?? [];
    // New files first, old ones after: a write that fails (a full disk) leaves the old files whole.
    const written = await writeRuleFiles(target.dir, live, schemaReference(target.dir, cwd));
    await removeRuleFiles(target.existing, written.map((name) => resolve(target.dir, name)));
    onImported({ app: target.app.name, dir: displayPath(cwd, target.dir), rules: live.length, files: written.length, replaced: target.existing.length });
  }
}

function refuseToOverwrite(targets: readonly Target[], cwd: string): void {
  const occupied = targets.filter((t) => t.existing.length > 0);
  if (occupied.length === 0) return;
  const files = occupied.flatMap((t) => t.existing.map((file) => `  ${displayPath(cwd, file)}`));
  throw new UserError(`refusing to overwrite ${plural(files.length, 'existing rule file')}:`, [
    ...files,
    'Use --update to edit them in place so they declare the live rules (--update --pin only adds the ruleId of rules created in the console), ' +
      '--force to replace them (only *.yaml and *.yml files are removed), or --out to write elsewhere.',
  ]);
}
