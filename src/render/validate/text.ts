// validate's text: the one summary line when the files are valid, and each warning and finding
// as FILE:LINE:COL: warning|info: … (on stderr, so stdout holds only the summary or, with
// --format sarif, only the SARIF document). Files and messages quote rule files: untrusted.
import { formatProblem, sortProblems } from '../../errors.js';
import { plural } from '../../plural.js';
import type { Sink } from '../contract.js';
import { safeText } from '../sanitise.js';
import type { ValidateReport } from './model.js';
import { isReported, type PolicyFinding } from '../policies/model.js';
import { policyLine } from '../policies/words.js';
import { policyMessage } from '../policies/words.js';

/** Policy findings shown beside the warnings: reported, and not among the errors. */
export function shownPolicies(report: Pick<ValidateReport, 'policies' | 'errors'>): PolicyFinding[] {
  const failed = new Set(report.errors.map((error) => `${error.file}:${error.line}:${error.col}\u0000${error.message}`));
  return report.policies.filter((finding) => isReported(finding) && !failed.has(`${finding.at.file}:${finding.at.line}:${finding.at.col}\u0000${policyMessage(finding)} [${finding.builtin ? finding.policy : 'policy'}]`));
}

/** `; policies: 3 hold, 1 violated`, when the project has policies of its own. */
function policyCounts(report: ValidateReport): string {
  const own = report.policies.filter((finding) => !finding.builtin);
  if (own.length === 0) return '';
  const count = (verdict: PolicyFinding['verdict']) => own.filter((finding) => finding.verdict === verdict).length;
  const parts = [`${count('holds')} hold`, ...(count('violated') > 0 ? [`${count('violated')} violated`] : []), ...(count('unchecked') > 0 ? [`${count('unchecked')} unchecked`] : [])];
  return `; ${plural(own.length, 'policy check')}: ${parts.join(', ')}`;
}

/** `2 apps, 3 files, 12 rules: valid (1 warning)`; the app count only when there are several. */
export function validateSummary(report: ValidateReport): string {
  const apps = report.apps > 1 ? `${plural(report.apps, 'app')}, ` : '';
  const policyWarnings = shownPolicies(report).filter((finding) => finding.level === 'warning').length;
  const warningCount = report.warnings.length + report.findings.filter((finding) => finding.severity === 'warning').length + policyWarnings;
  const warned = warningCount > 0 ? ` (${plural(warningCount, 'warning')})` : '';
  return `${apps}${plural(report.files, 'file')}, ${plural(report.rules, 'rule')}: valid${warned}${policyCounts(report)}`;
}

/** stdout of `--format text`: the summary, when valid (the errors are the error handler's). */
export async function renderValidateText(report: ValidateReport, out: Sink): Promise<void> {
  if (report.errors.length === 0) await out.write(`${validateSummary(report)}\n`);
}

/** The warnings of the files, then the findings of the analysis, one line each. */
export async function renderValidateLog(report: ValidateReport, out: Sink): Promise<void> {
  const lines = [
    ...sortProblems(report.warnings).map((w) => formatProblem({ ...w, message: `warning: ${w.message}` })),
    ...report.findings.map((f) => `${f.file}:${f.line}:${f.col}: ${f.severity}: ${f.message} [${f.check}]`),
    ...shownPolicies(report).map((finding) => policyLine(finding)),
  ];
  await out.write(lines.map((line) => `${safeText(line)}\n`).join(''));
}
