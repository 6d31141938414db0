// validate's annotations: each file warning, and each analysis finding with its check as the
// title (the errors are annotated by the error handler, with every ValidationError's problems).
import { sortProblems } from '../../errors.js';
import type { Annotation } from '../github.js';
import type { ValidateReport } from './model.js';
import { shownPolicies } from './text.js';
import { policyAnnotation } from '../policies/github.js';

export function validateAnnotations(report: ValidateReport): Annotation[] {
  return [
    ...sortProblems(report.warnings).map((w): Annotation => ({ level: 'warning', file: w.file, line: w.line, col: w.col, message: w.message })),
    ...report.findings.map((f): Annotation => ({
      level: f.severity === 'warning' ? 'warning' : 'notice', file: f.file, line: f.line, col: f.col, title: `botrules ${f.check}`, message: f.message,
    })),
    ...shownPolicies(report).map(policyAnnotation),
  ];
}
