// A policy finding as a GitHub annotation at the policy's line, titled by the policy; the
// deciding rule's place is in the message (an annotation has one location).
import type { Annotation } from '../github.js';
import type { PolicyFinding } from './model.js';
import { policyMessage } from './words.js';

export function policyAnnotation(finding: PolicyFinding): Annotation {
  const level = finding.level === 'error' ? 'error' : finding.level === 'warning' ? 'warning' : 'notice';
  const title = finding.builtin ? `botrules ${finding.policy}` : `botrules policy ${finding.verdict === 'violated' ? 'violated' : 'unchecked'}`;
  return { level, file: finding.at.file, line: finding.at.line, col: finding.at.col, title, message: policyMessage(finding) };
}
