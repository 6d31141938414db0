// `validate`: schema and semantic checks of every rule file of every selected app, then the
// rule-set analysis (docs/evaluation.md, "Rule-set analysis"); no network.
import { analyseRules, type Finding } from '../validate/checks.js';
import { silenced } from '../validate/silence.js';
import { sortProblems, type Problem } from '../errors.js';
import { everyApp, loadProject } from './project.js';
import { loadAllRules } from '../rules/load.js';
import type { ProjectSelection, Runtime } from '../runtime.js';
import type { ValidateReport } from '../render/validate/model.js';
import { redosFindings, redosRun } from './redos.js';
import { loadPolicies, policyReferenceProblems } from '../rules/policies.js';
import type { PolicyFinding } from '../render/policies/model.js';
import { failsCommand, isReported } from '../render/policies/model.js';
import { policyMessage } from '../render/policies/words.js';
import { builtinPolicyFindings, checkPolicies, DEFAULT_POLICY_BUDGET_SECONDS, policyRun, ruleLocations } from './policies.js';
import { DEFAULT_SHADOW_MAX_AGE_DAYS, shadowAgeWarnings } from './shadow-age.js';
import { longExpiredWarnings } from '../semantics/lifetime.js';


interface ValidateRequest extends ProjectSelection {
  /** File warnings count as problems: the analysis does not run when there are any. */
  strict: boolean;
  /** Seconds the policy checks may take in all (docs/behaviour.md, "Policies"). */
  policyBudget?: number;
}

interface ValidatedProject {
  problems: Problem[];
  /** Warnings of the files (docs/behaviour.md, "Warnings"). */
  fileWarnings: Problem[];
  /** The analysis findings not silenced in the files; none when the analysis did not run. */
  findings: Finding[];
  /** Every policy for every app (holds included), and the built-in policies' findings; none when they did not run. */
  policies?: PolicyFinding[];
  apps: number;
  files: number;
  rules: number;
}

export async function validateProject(request: ValidateRequest, ctx: Runtime): Promise<ValidatedProject> {
  const { cwd } = ctx;
  const started = Date.now();
  const config = await loadProject(request, cwd);
  ctx.debug(config.file ? `config: ${config.file}` : 'config: none (one app "default")');
  // One moment for every lifetime and age this run judges (--now rehearses another).
  const now = request.now ?? Date.now();
  const { byApp, problems, warnings } = await loadAllRules(config, { cwd, allowEmpty: request.allowEmpty === true, now });
  const declared = [...byApp.values()].flatMap((loaded) => loaded.rules);
  const maxAgeDays = config.shadowMaxAgeDays ?? DEFAULT_SHADOW_MAX_AGE_DAYS;
  const ageWarnings = [...(await shadowAgeWarnings(declared, { cwd, maxAgeDays, now })), ...eachOnceByPlace(longExpiredWarnings(declared, now))];
  const fileWarnings = sortProblems([...warnings, ...ageWarnings]);
  const policies = await loadPolicies(config, cwd);
  const allApps = everyApp(config).map((app) => app.name);
  problems.push(...policies.problems, ...policyReferenceProblems(policies.policies, new Map([...byApp].map(([app, loaded]) => [app, loaded.rules])), allApps));
  const validated: ValidatedProject = { problems: sortProblems(problems), fileWarnings, findings: [], policies: [], apps: byApp.size, files: 0, rules: 0 };
  if (problems.length > 0 || (request.strict && fileWarnings.length > 0)) return validated;

  const findingsOfApps: Finding[][] = [];
  const redos = redosRun();
  for (const [app, loaded] of byApp) {
    ctx.debug(`app ${app}: ${loaded.files.length} files, ${loaded.rules.length} rules`);
    validated.files += loaded.files.length;
    validated.rules += loaded.rules.length;
    findingsOfApps.push([...analyseRules(loaded.rules), ...(await redosFindings(loaded.rules, redos))]);
  }
  // The silencing comments as the files held them when read: no file is read twice.
  const silencingTexts = new Map([...byApp.values()].flatMap((loaded) => [...loaded.silencingTexts]));
  const run = policyRun(request.policyBudget ?? DEFAULT_POLICY_BUDGET_SECONDS, started);
  const targets = [...byApp].map(([app, loaded]) => ({ app, rules: loaded.rules, locations: ruleLocations(loaded.rules) }));
  const proving = performance.now();
  validated.policies = [
    ...checkPolicies(policies.policies, targets, run),
    ...[...byApp].flatMap(([app, loaded]) => builtinPolicyFindings(app, loaded.rules, config.builtinPolicies)),
  ];
  ctx.debug(`checked ${policies.policies.length} policies and the built-in ones in ${Math.round(performance.now() - proving)} ms`);
  validated.findings = silenced(findingsOfApps.length === 1 ? (findingsOfApps[0] as Finding[]) : eachOnce(findingsOfApps.flat()), (file) => silencingTexts.get(file));
  return validated;
}

/** Apps may share a rules directory: each finding once (one app's findings are distinct already). */
function eachOnce(findings: readonly Finding[]): Finding[] {
  const byKey = new Map<string, Finding>();
  for (const finding of findings) byKey.set(JSON.stringify([finding.file, finding.line, finding.check, finding.message]), finding);
  return [...byKey.values()];
}

/**
 * The verdict on a validated project. Problems fail it; under --strict, file warnings fail it
 * (and the analysis does not run), and so do analysis warnings, said with their check's id.
 */
export function validateReport(project: ValidatedProject, strict: boolean): ValidateReport {
  const { problems, fileWarnings, findings, apps, files, rules } = project;
  const counts = { apps, files, rules, strict, policies: project.policies ?? [] };
  if (problems.length > 0 || (strict && fileWarnings.length > 0)) {
    const warningsAsErrors = strict ? fileWarnings.map((w) => ({ ...w, message: `warning: ${w.message}` })) : [];
    return { ...counts, errors: [...problems, ...warningsAsErrors], warnings: strict ? [] : fileWarnings, findings: [], found: { problems, fileWarnings, findings: [] } };
  }
  const found = { problems: [] as Problem[], fileWarnings, findings };
  // An error-level policy not proved to hold fails validate; under --strict, a warning-level one too.
  const failing = counts.policies.filter((finding) => failsCommand(finding) || (strict && finding.level === 'warning' && isReported(finding)));
  const policyErrors = failing.map((finding) => ({ ...finding.at, message: `${policyMessage(finding)} [${finding.builtin ? finding.policy : 'policy'}]` }));
  const findingWarnings = findings.filter((finding) => finding.severity === 'warning');
  if (strict && findingWarnings.length > 0) {
    const errors = findingWarnings.map((w) => ({ file: w.file, line: w.line, col: w.col, message: `${w.message} [${w.check}]` }));
    return { ...counts, errors: sortProblems([...errors, ...policyErrors]), warnings: fileWarnings, findings: [], found };
  }
  return { ...counts, errors: sortProblems(policyErrors), warnings: fileWarnings, findings, found };
}

/** Apps may share a rules directory: a warning at one place once. */
function eachOnceByPlace(problems: readonly Problem[]): Problem[] {
  return [...new Map(problems.map((p) => [JSON.stringify([p.file, p.line, p.col]), p])).values()];
}
