// `validate`: schema and semantic checks of every rule file of every selected app, then the
// rule-set analysis (docs/evaluation.md, "Rule-set analysis"); no network.
import { analyseRules, silenced, type Finding } from '../analysis/index.js';
import { sortProblems, type Problem } from '../errors.js';
import { loadProjectConfig } from '../rules/config.js';
import { loadAllRules } from '../rules/load.js';
import type { ProjectSelection, Runtime } from '../runtime.js';
import type { ValidateReport } from '../render/validate/model.js';
import { redosFindings, redosRun } from './redos.js';
import { DEFAULT_SHADOW_MAX_AGE_DAYS, shadowAgeWarnings } from './shadow-age.js';

export type { Finding } from '../analysis/index.js';
export type { ValidateReport } from '../render/validate/model.js';

export interface ValidateRequest extends ProjectSelection {
  /** File warnings count as problems: the analysis does not run when there are any. */
  strict: boolean;
}

export interface ValidatedProject {
  problems: Problem[];
  /** Warnings of the files (docs/behaviour.md, "Warnings"). */
  fileWarnings: Problem[];
  /** The analysis findings not silenced in the files; none when the analysis did not run. */
  findings: Finding[];
  apps: number;
  files: number;
  rules: number;
}

export async function validateProject(request: ValidateRequest, ctx: Runtime): Promise<ValidatedProject> {
  const { cwd } = ctx;
  const config = await loadProjectConfig({ cwd, config: request.config, dir: request.dir, app: request.app });
  ctx.debug(config.file ? `config: ${config.file}` : 'config: none (one app "default")');
  const { byApp, problems, warnings } = await loadAllRules(config, { cwd, allowEmpty: request.allowEmpty === true });
  const shadowRules = [...byApp.values()].flatMap((loaded) => loaded.rules);
  const maxAgeDays = config.shadowMaxAgeDays ?? DEFAULT_SHADOW_MAX_AGE_DAYS;
  const fileWarnings = sortProblems([...warnings, ...(await shadowAgeWarnings(shadowRules, { cwd, maxAgeDays, now: Date.now() }))]);
  const validated: ValidatedProject = { problems, fileWarnings, findings: [], apps: byApp.size, files: 0, rules: 0 };
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
  const counts = { apps, files, rules, strict };
  if (problems.length > 0 || (strict && fileWarnings.length > 0)) {
    const warningsAsErrors = strict ? fileWarnings.map((w) => ({ ...w, message: `warning: ${w.message}` })) : [];
    return { ...counts, errors: [...problems, ...warningsAsErrors], warnings: strict ? [] : fileWarnings, findings: [], found: { problems, fileWarnings, findings: [] } };
  }
  const found = { problems: [] as Problem[], fileWarnings, findings };
  const findingWarnings = findings.filter((finding) => finding.severity === 'warning');
  if (strict && findingWarnings.length > 0) {
    const errors = findingWarnings.map((w) => ({ file: w.file, line: w.line, col: w.col, message: `${w.message} [${w.check}]` }));
    return { ...counts, errors, warnings: fileWarnings, findings: [], found };
  }
  return { ...counts, errors: [], warnings: fileWarnings, findings, found };
}
