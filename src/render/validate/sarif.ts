// validate's SARIF (`validate --format sarif`): every problem, file warning and analysis
// finding as a located result, at --strict's levels (docs/behaviour.md, "SARIF"). Ids are
// stable: the analysis checks keep the ids a rule file silences them by.
import { CHECK_DESCRIPTIONS } from '../../validate/descriptions.js';
import { CHECK_IDS } from '../../validate/checks.js';
import type { Sink } from '../contract.js';
import { FILE_WARNING, INVALID_FILE, located, renderSarif, type SarifModel, type SarifRule } from '../sarif/index.js';
import type { ValidateReport } from './model.js';
import { POLICY_SARIF_RULES, policySarifResult } from '../policies/sarif.js';

const ANALYSIS_RULES: SarifRule[] = CHECK_IDS.map((id) => ({ id, description: CHECK_DESCRIPTIONS[id] }));

function validateSarif(report: Pick<ValidateReport, 'found' | 'strict' | 'policies'>): SarifModel {
  const { problems, fileWarnings, findings } = report.found;
  const warningLevel = report.strict ? 'error' : 'warning';
  return {
    rules: [INVALID_FILE, FILE_WARNING, ...ANALYSIS_RULES, ...POLICY_SARIF_RULES],
    results: [
      ...problems.map((p) => located(p, INVALID_FILE.id, 'error')),
      ...fileWarnings.map((w) => located(w, FILE_WARNING.id, warningLevel)),
      ...findings.map((f) => located(f, f.check, f.severity === 'info' ? 'note' : warningLevel)),
      ...report.policies.filter((finding) => finding.verdict !== 'holds').map((finding) => policySarifResult(finding, report.strict)),
    ],
  };
}

export function renderValidateSarif(report: ValidateReport, out: Sink): void {
  renderSarif(validateSarif(report), out);
}
