// A policy finding in words (docs/behaviour.md, "Policies"): the one sentence every format of
// validate, plan, apply and diff shows, and the finding as the JSON documents carry it (the
// sentence as `message`, where it has always been). Names and values come from files: callers
// sanitise what they print.
import { UserError } from '../../errors.js';
import { describeRequest } from '../../validate/witness.js';
import type { PolicyFinding } from './model.js';

/** What was proved, or could not be, with the example request and the deciding rule. */
export function policyMessage(finding: PolicyFinding): string {
  const { grounds } = finding;
  const named = `policy ${JSON.stringify(finding.policy)}`;
  switch (grounds.kind) {
    case 'worded': return grounds.text;
    case 'proved': return `${named} holds for app ${finding.app}: proved for every request of its class`;
    case 'undecided': {
      const parts = grounds.parts.map((part) => `${part.reason}${part.rules.length === 0 ? '' : ` (rules ${part.rules.map((rule) => JSON.stringify(rule)).join(', ')})`}`);
      return `${named} could not be checked for app ${finding.app}: ${parts.join('; ')}; it is not known to hold`;
    }
    case 'counterexample': {
      const { rule, through = [] } = finding;
      const by = rule === undefined
        ? 'is decided by no rule (outcome none)'
        : `gets ${grounds.outcome} from rule ${JSON.stringify(rule.name)}${rule.at === undefined ? '' : ` (${rule.at.file}:${rule.at.line}:${rule.at.col})`}`;
      const via = through.length === 0 ? '' : ` through ${through.map((step) => `${step.path} (${step.condition})`).join(' and ')}`;
      const wanted = 'decidedBy' in grounds.expect ? `it must be decided by rule ${JSON.stringify(grounds.expect.decidedBy)}` : `the policy allows ${grounds.expect.outcome.join(', ')}`;
      const example = finding.example === undefined ? '' : ` ${describeRequest(finding.example)}`;
      return `Policy violated: ${JSON.stringify(finding.policy)} for app ${finding.app}: for example the request${example} ${by}${via}; ${wanted}`;
    }
  }
}

/** A finding as the JSON documents write it: its fields in their order, the sentence as `message`. */
export function findingDocument(finding: PolicyFinding): object {
  const { policy, builtin, level, app, at, verdict, grounds: _grounds, ...rest } = finding;
  return { policy, builtin, level, app, at, verdict, message: policyMessage(finding), ...rest };
}

/** `rules/a.yaml:3:5: error: … [policy]`, the one line of a finding in text and logs. */
export function policyLine(finding: PolicyFinding, suffix = ''): string {
  const word = finding.level === 'advisory' ? 'info' : finding.level;
  return `${finding.at.file}:${finding.at.line}:${finding.at.col}: ${word}: ${policyMessage(finding)}${suffix} [${finding.builtin ? finding.policy : 'policy'}]`;
}

/**
 * Apply's refusal over the error-level findings that stop it (docs/behaviour.md, "Policies and
 * apply"): the policy or their count, each finding on its line, and the two ways on.
 */
export function policyRefusal(refusing: readonly PolicyFinding[]): UserError {
  const what = refusing.length === 1 ? `error-level policy ${JSON.stringify(refusing[0]?.policy)} is` : `${refusing.length} error-level policies are`;
  return new UserError(`apply refuses: ${what} not proved to hold for the rules as this apply would leave them, and the live rules do not already break it; nothing was sent`, [
    ...refusing.map((finding) => `${finding.at.file}:${finding.at.line}:${finding.at.col}: ${policyMessage(finding)}`),
    'Fix the rules (botrules plan shows the example request and the rule that decides it) or, if the policy is wrong, change it in a reviewed commit; ' +
    '--force applies anyway (it also overrides the change limits).',
  ]);
}
