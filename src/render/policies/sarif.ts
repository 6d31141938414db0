// Policy findings as SARIF results (docs/behaviour.md, "SARIF"): located at the policy, with
// the deciding rule as a related location, so code scanning shows both places.
import type { SarifFinding, SarifRule } from '../sarif/index.js';
import type { PolicyFinding } from './model.js';
import { policyMessage } from './words.js';
import { OPERATOR_MATRIX } from '../../validate/operator-matrix.js';

export const POLICY_SARIF_RULES: readonly SarifRule[] = [
  { id: 'policy-violated', description: 'A request of a policy\'s class gets an outcome the policy forbids (the message gives one, confirmed by the evaluator).' },
  { id: 'policy-unchecked', description: 'A policy could not be proved either way (a regular expression or the time budget left part open).' },
  { id: 'abusable-allow', description: 'An allow rule matches on the user agent with no IP or ASN condition: anyone can send that user agent.' },
  {
    id: 'operator-matrix',
    description: `An operator the service's documentation does not list for the leaf's conditionType. Checked: ${Object.keys(OPERATOR_MATRIX).join(', ')} ` +
      '(the only condition types whose operator lists could be read); leaves of other condition types are not checked.',
  },
];

export function policySarifResult(finding: PolicyFinding, strict: boolean): SarifFinding {
  const ruleId = finding.builtin ? finding.policy : finding.verdict === 'violated' ? 'policy-violated' : 'policy-unchecked';
  const level = finding.level === 'error' || (strict && finding.level === 'warning') ? 'error' : finding.level === 'warning' ? 'warning' : 'note';
  const ruleAt = finding.builtin ? undefined : finding.rule?.at;
  return {
    ruleId, level, file: finding.at.file, line: finding.at.line, col: finding.at.col, message: policyMessage(finding),
    ...(ruleAt === undefined ? {} : { related: [{ ...ruleAt, message: `rule ${JSON.stringify(finding.rule?.name)}, which decides the example request` }] }),
  };
}
