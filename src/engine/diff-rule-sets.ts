// `botrules diff OLD NEW`: the exhaustive behaviour diff of any two rule sets
// (docs/behaviour.md, "Exhaustive behaviour diff"). Each side is a rules directory, one rule
// file, or a live snapshot (`botrules live --out`; the app chosen with --app when it holds
// several). Rule files are checked as validate checks them, every problem reported at its
// line, before anything is compared.
import { stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { sortProblems, UserError, ValidationError } from '../errors.js';
import { uniqueNames, uniqueRuleIds } from '../rules/checks/unique.js';
import { loadRules } from '../rules/load.js';
import { readRuleFile } from '../rules/rule-file.js';
import type { NormalRule } from '../semantics/model.js';
import type { Runtime } from '../runtime.js';
import { inPriorityOrder } from '../semantics/list-move.js';
import { ruleSetsDiff, type DiffRun } from './diff.js';
import { ruleFilesAt } from './changed-rules.js';
import { everyApp, loadEveryApp } from './project.js';
import { loadPolicies, policyReferenceProblems } from '../rules/policies.js';
import { DEFAULT_POLICY_BUDGET_SECONDS, policyChanges, policyRun } from './policies.js';
import type { RuleSetsDiffView } from '../render/diff/index.js';
import { plural } from '../plural.js';

interface RuleSetsDiffRequest {
  old: string;
  new: string;
  /** The app of a live snapshot that holds several. */
  app?: string;
  run: DiffRun;
  /** The project's config (for its policies; docs/behaviour.md, "Policies"). */
  config?: string;
  /** Seconds the policy checks may take in all. */
  policyBudget?: number;
}

export async function diffRuleSets(request: RuleSetsDiffRequest, ctx: Runtime): Promise<RuleSetsDiffView> {
  const started = Date.now();
  // Both sides' lifetimes at one moment.
  const now = started;
  const config = await loadEveryApp({ config: request.config }, ctx.cwd);
  const policies = await loadPolicies(config, ctx.cwd);
  const [before, after] = await Promise.all([ruleSet(request.old, request.app, ctx.cwd, now), ruleSet(request.new, request.app, ctx.cwd, now)]);
  const app = before.app ?? after.app ?? request.app ?? 'default';
  const references = policyReferenceProblems(policies.policies.filter((policy) => !('decidedBy' in policy.expect)), new Map(), everyApp(config).map((one) => one.name));
  if (policies.problems.length > 0 || references.length > 0) throw new ValidationError([...policies.problems, ...references]);
  ctx.debug(`comparing ${before.rules.length} with ${after.rules.length} rules`);
  const diff = ruleSetsDiff(app, before.rules, after.rules, request.run);
  const run = policyRun(request.policyBudget ?? DEFAULT_POLICY_BUDGET_SECONDS, started);
  if (policies.policies.length === 0) return { diff, sides: [before.label, after.label] };
  return { diff, sides: [before.label, after.label], policies: policyChanges(policies.policies, app, before.rules, after.rules, run) };
}

interface RuleSet {
  rules: NormalRule[];
  label: string;
  app?: string;
}

async function ruleSet(given: string, app: string | undefined, cwd: string, now: number): Promise<RuleSet> {
  const path = resolve(cwd, given);
  const info = await stat(path).catch(() => undefined);
  const revision = REVISION_SIDE.exec(given);
  if (info === undefined && revision !== null) return revisionSide(revision[1] ?? '', revision[2] ?? '', given, cwd, now);
  if (info === undefined) throw new UserError(`cannot read ${given}: it does not exist`, [SIDES]);
  if (info.isDirectory()) {
    const loaded = await loadRules(given, { cwd, now });
    if (loaded.problems.length > 0) throw new ValidationError(loaded.problems);
    return { rules: loaded.rules, label: `${given} (${plural(loaded.rules.length, 'rule')})` };
  }
  const extension = extname(given).toLowerCase();
  if (extension === '.yaml' || extension === '.yml') {
    const read = readRuleFile(path, given, { now });
    if (read.problems.length > 0) throw new ValidationError(read.problems);
    return { rules: read.rules, label: `${given} (${plural(read.rules.length, 'rule')})` };
  }
  if (extension === '.json') return snapshotSide(path, given, app);
  throw new UserError(`cannot compare ${given}: it is neither a directory, a rule file (.yaml) nor a live snapshot (.json)`, [SIDES]);
}

const SIDES = 'Each side of botrules diff is a rules directory, a rule file, a live snapshot written by botrules live --out FILE, or REV:DIR (a rules directory at a git revision, main:rules).';

/** `REV:PATH` (`main:rules`, `HEAD~1:rules`, `origin/main:rules/shop`), as git names a path at a revision. */
const REVISION_SIDE = /^([^:\s]+):(.+)$/;

/** A rules directory as git has it at `ref`: its files read and checked like files on disk. */
async function revisionSide(ref: string, dir: string, given: string, cwd: string, now: number): Promise<RuleSet> {
  const read = await ruleFilesAt(ref, resolve(cwd, dir), cwd, `the side ${JSON.stringify(given)} names revision`, now);
  if (read.length === 0) throw new UserError(`${given}: revision ${JSON.stringify(ref)} has no rule files (*.yaml, *.yml) in ${dir}`, [SIDES]);
  const identities = read.flatMap(({ result }) => result.identities);
  const problems = [...read.flatMap(({ result }) => result.problems), ...uniqueNames(identities), ...uniqueRuleIds(identities)];
  if (problems.length > 0) throw new ValidationError(sortProblems(problems));
  const rules = read.flatMap(({ result }) => result.rules);
  return { rules, label: `${given} (${plural(rules.length, 'rule')})` };
}

/** Loaded only for a snapshot, so comparing rule files never loads the snapshot reader. */
async function snapshotSide(path: string, given: string, app: string | undefined): Promise<RuleSet> {
  const [{ readLiveSnapshotFile }, { rulesOf }] = await Promise.all([import('../live/file.js'), import('../live/snapshot.js')]);
  const snapshot = await readLiveSnapshotFile(path, given);
  const only = snapshot.apps.length === 1 ? snapshot.apps[0]?.app : undefined;
  const chosen = app ?? only;
  if (chosen === undefined) {
    throw new UserError(`${given} holds snapshots of ${snapshot.apps.length} apps: choose one with --app`, [`Its apps: ${snapshot.apps.map((entry) => JSON.stringify(entry.app)).join(', ')}`]);
  }
  const rules = inPriorityOrder(rulesOf(snapshot, chosen, given));
  return { rules, label: `${given}, app ${JSON.stringify(chosen)} at ${snapshot.takenAt} (${plural(rules.length, 'rule')})`, app: chosen };
}
