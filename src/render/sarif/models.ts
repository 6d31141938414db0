// The SARIF models of `validate` and `test`: which kinds of finding each command can report,
// and each finding as a located result. Ids are stable: the analysis checks keep the ids a
// rule file silences them by; problems and warnings of the files have ids of their own.
import { CHECK_DESCRIPTIONS, CHECK_IDS, type Finding } from '../../analysis/index.js';
import type { Problem } from '../../errors.js';
import type { TestResult } from '../../ruletests/run.js';
import type { SarifFinding, SarifModel, SarifRule } from './index.js';

const INVALID_FILE: SarifRule = { id: 'invalid-file', description: 'A problem in a file that botrules cannot use as it is (schema, syntax or semantics).' };
const FILE_WARNING: SarifRule = { id: 'file-warning', description: 'A legal value that is probably a mistake (for example an uncommon HTTP method).' };
const FAILED_TEST: SarifRule = { id: 'failed-rule-test', description: 'A test request that the rules do not decide as the test expects.' };
const ANALYSIS_RULES: SarifRule[] = CHECK_IDS.map((id) => ({ id, description: CHECK_DESCRIPTIONS[id] }));

export interface ValidateFindings {
  problems: readonly Problem[];
  fileWarnings: readonly Problem[];
  findings: readonly Finding[];
  /** --strict: warnings are errors. */
  strict: boolean;
}

export function validateSarif(input: ValidateFindings): SarifModel {
  const warningLevel = input.strict ? 'error' : 'warning';
  return {
    rules: [INVALID_FILE, FILE_WARNING, ...ANALYSIS_RULES],
    results: [
      ...input.problems.map((p) => located(p, INVALID_FILE.id, 'error')),
      ...input.fileWarnings.map((w) => located(w, FILE_WARNING.id, warningLevel)),
      ...input.findings.map((f) => located(f, f.check, f.severity === 'info' ? 'note' : warningLevel)),
    ],
  };
}

export function testSarif(problems: readonly Problem[], results: readonly TestResult[]): SarifModel {
  const failed = results.filter((result) => !result.passed);
  return {
    rules: [INVALID_FILE, FAILED_TEST],
    results: [
      ...problems.map((p) => located(p, INVALID_FILE.id, 'error')),
      ...failed.map((result) => located(
        { ...result.test.source, message: `test ${JSON.stringify(result.test.name)} failed: ${result.reasons.join('; ')}` },
        FAILED_TEST.id,
        'error',
      )),
    ],
  };
}

function located(where: Problem, ruleId: string, level: SarifFinding['level']): SarifFinding {
  return { ruleId, level, file: where.file, line: where.line, col: where.col, message: where.message };
}
