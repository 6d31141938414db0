// Which policy verdicts stop an apply (docs/behaviour.md, "Policies and apply"): an error-level
// policy the rules apply would leave do not hold, unless the live rules already break it (the
// same unchecked verdict before and after is the past too); warnings and advisories never do.
import { raiseIfPolicyRefuses, refusingFindings } from '../../src/engine/apply-policies.js';
import type { PolicyFinding } from '../../src/render/policies/model.js';

type Verdict = PolicyFinding['verdict'];

function finding(level: PolicyFinding['level'], verdict: Verdict, live: Verdict | undefined): PolicyFinding {
  return {
    policy: `${level} ${verdict} ${live ?? 'none'}`, builtin: false, level, app: 'default', verdict,
    at: { file: 'policies/p.yaml', line: 2, col: 5 }, grounds: { kind: 'worded', text: `policy ${level}: ${verdict}, live ${live ?? 'none'}` },
    ...(live === undefined ? {} : { live }),
  };
}

const CASES: [PolicyFinding['level'], Verdict, Verdict | undefined, boolean][] = [
  ['error', 'violated', 'holds', true],
  ['error', 'unchecked', 'holds', true],
  ['error', 'violated', 'unchecked', true],
  ['error', 'violated', 'violated', false],
  ['error', 'unchecked', 'violated', false],
  ['error', 'unchecked', 'unchecked', false],
  ['error', 'holds', undefined, false],
  ['warning', 'violated', 'holds', false],
  ['advisory', 'violated', 'holds', false],
];

it.each(CASES)('%s policy, %s after the apply, %s before: refuses %s', (level, verdict, live, refuses) => {
  const findings = [finding(level, verdict, live)];
  expect(refusingFindings(findings).length).toBe(refuses ? 1 : 0);
  if (refuses) expect(() => raiseIfPolicyRefuses(findings, false)).toThrow(/^apply refuses: error-level policy .* nothing was sent$/);
  else expect(() => raiseIfPolicyRefuses(findings, false)).not.toThrow();
  expect(() => raiseIfPolicyRefuses(findings, true)).not.toThrow();
});
