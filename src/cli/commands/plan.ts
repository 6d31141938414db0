// `botrules plan [--out FILE] [--format text|json|markdown] [--detailed-exitcode]`:
// validate, one LIST per app, print the plan. Exit codes (docs/behaviour.md, "Exit codes"): 1 for an error,
// blocked rules included (after printing the plan, so the user sees what to do); with
// --detailed-exitcode 2 when there are changes, else 0.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { UserError, ValidationError } from '../../errors.js';
import { checkWritable, writeFileAtomic } from '../../files/write.js';
import { BLOCKED_ADVICE, Plan } from '../../plan/plan.js';
import { planApps, type ConnectApp } from '../../apply/session.js';
import { loadPlanRenderer, PLAN_FORMATS } from '../../render/plan/index.js';
import { safeText } from '../../render/sanitise.js';
import { loadProjectConfig } from '../../rules/config.js';
import { behaviourReport } from '../../ruletests/behaviour.js';
import { defaultTestsDir, loadTests, type RuleTest } from '../../ruletests/load.js';
import { appProblems } from '../../ruletests/run.js';
import type { CommandContext, GlobalArgs } from '../context.js';

export function builder(yargs: Argv<GlobalArgs>): Argv<GlobalArgs> {
  return yargs
    .option('out', { type: 'string', describe: 'Also save the plan as JSON, for apply --plan' })
    .option('format', { type: 'string', choices: PLAN_FORMATS, default: 'text', describe: 'How to print the plan' })
    .option('live', { type: 'string', describe: 'Plan against this live snapshot (botrules live --out) instead of listing: no token, no request' })
    .option('tests', { type: 'string', describe: 'Test files whose requests the plan checks for changed outcomes (default: tests, when it exists)' })
    .option('detailed-exitcode', { type: 'boolean', default: false, describe: 'Exit 0 without changes, 2 with changes, 1 on error' })
    .example('$0 plan', 'show what apply would change')
    .example('$0 plan --live live.json --format markdown', 'plan a pull request against the newest live snapshot, with no token')
    .example('$0 plan --out plan.json --format markdown >> "$GITHUB_STEP_SUMMARY"', 'save a plan and summarise it in CI') as unknown as Argv<GlobalArgs>;
}

export async function run(args: GlobalArgs & Record<string, unknown>, ctx: CommandContext): Promise<number> {
  const render = await loadPlanRenderer(String(args.format));
  const out = typeof args.out === 'string' ? args.out : undefined;
  // Checked before any request, so an unwritable --out never costs a LIST (docs/behaviour.md, "Output files").
  if (out !== undefined) await checkWritable(resolve(ctx.io.cwd, out), '--out', out);
  const fromSnapshot = typeof args.live === 'string' ? await loadSnapshot(args.live, ctx) : undefined;
  // Test files are checked with the rule files, before any request.
  const tests = await loadPlanTests(args, ctx);
  // From a snapshot: the same planning, each app's live rules read from the file (no token, no request).
  const planned = await planApps(args, ctx, fromSnapshot?.source);
  const behaviour = tests === undefined
    ? undefined
    : behaviourReport(tests.tests, tests.apps, planned.map((p) => ({ app: p.app.name, live: p.live, steps: p.plan.steps })));
  const plan = new Plan(planned.map((p) => p.plan), {
    ...(fromSnapshot === undefined ? {} : { snapshot: { takenAt: fromSnapshot.takenAt } }),
    ...(behaviour === undefined ? {} : { behaviour }),
  });
  await render(plan, ctx.io.stdout, { colors: ctx.colors });
  // Said at plan time, so a reviewer knows before apply refuses (on stderr: stdout is the plan).
  const limits = Object.fromEntries(planned.map((p) => [p.app.name, p.app.maxChanges]));
  for (const excess of plan.excesses(limits)) ctx.io.stderr.write(`warning: ${safeText(excess)}; apply will refuse it without --force\n`);
  if (out !== undefined) {
    await writeFileAtomic(resolve(ctx.io.cwd, out), `${JSON.stringify(plan.toJSON(), null, 2)}\n`, '--out', out);
    // On stderr, so stdout stays exactly the plan in the chosen format.
    ctx.io.stderr.write(plan.snapshot === undefined
      ? `Plan saved to ${safeText(out)}; apply it with: botrules apply --plan ${safeText(out)}\n`
      : `Plan saved to ${safeText(out)}, for review only: it was made from a live snapshot, and apply refuses it\n`);
  }
  const blocked = plan.blockedSentence();
  if (blocked !== undefined) throw new UserError(blocked, [BLOCKED_ADVICE]);
  if (args.detailedExitcode === true) return plan.hasChanges() ? 2 : 0;
  return 0;
}

/** Loaded only for --live, so a plan against the service never loads the snapshot reader. */
async function loadSnapshot(file: string, ctx: CommandContext): Promise<{ takenAt: string; source: ConnectApp }> {
  const [{ readSnapshotFile }, { snapshotSource }] = await Promise.all([import('../../live/file.js'), import('../../live/snapshot.js')]);
  const snapshot = await readSnapshotFile(resolve(ctx.io.cwd, file), file);
  return { takenAt: snapshot.takenAt, source: snapshotSource(snapshot, file) };
}

/**
 * The project's rule tests, for the behaviour diff (docs/evaluation.md, "Behaviour diff"):
 * from --tests, or from the default tests directory when it exists; undefined without tests.
 */
async function loadPlanTests(args: GlobalArgs & Record<string, unknown>, ctx: CommandContext): Promise<{ tests: RuleTest[]; apps: string[] } | undefined> {
  const cwd = ctx.io.cwd;
  const config = await loadProjectConfig({ cwd, config: args.config, dir: args.dir });
  const named = typeof args.tests === 'string' ? args.tests : undefined;
  const dir = named ?? defaultTestsDir(config.file, cwd);
  if (named === undefined && !(await isDirectory(resolve(cwd, dir)))) return undefined;
  const loaded = await loadTests(dir, { cwd });
  const apps = config.apps.map((app) => app.name);
  const problems = [...loaded.problems, ...appProblems(loaded.tests, apps)];
  if (problems.length > 0) throw new ValidationError(problems);
  ctx.debug(`read ${loaded.tests.length} rule tests from ${loaded.files.length} files`);
  return { tests: loaded.tests, apps };
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then((found) => found.isDirectory(), () => false);
}
