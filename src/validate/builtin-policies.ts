// The built-in policies (docs/behaviour.md, "Built-in policies"), checked on the rules by their
// shape, each at the level botrules.yaml gives it under `builtinPolicies` (default warning):
// - abusable-allow: an allow rule that can match on the user agent with no IP or ASN condition
//   (a way its conditions can match reads userAgent and neither socketIps nor socketIpASN).
//   Anyone can send any user agent; the service's console calls such a rule "abusable".
// - operator-matrix: a leaf whose operator the service's documentation does not list for its
//   conditionType (operator-matrix.ts holds the one table).
import { matchingWays } from '../diff/matching-ways.js';
import { leafPhrase } from '../diff/describe.js';
import type { BuiltinPolicyId, BuiltinPolicyLevel } from '../rules/written-config.js';
import type { DeclaredRule, Leaf } from '../semantics/model.js';
import { OPERATOR_MATRIX, OPERATOR_MATRIX_SOURCE } from './operator-matrix.js';
import { plural } from '../plural.js';

const BUILTIN_POLICIES: readonly BuiltinPolicyId[] = ['abusable-allow', 'operator-matrix'];
const DEFAULT_BUILTIN_LEVEL: BuiltinPolicyLevel = 'warning';

interface BuiltinFinding {
  policy: BuiltinPolicyId;
  level: Exclude<BuiltinPolicyLevel, 'off'>;
  rule: DeclaredRule;
  message: string;
  /** unchecked: what the policy could not check (never a pass); else a violation. */
  verdict?: 'unchecked';
}

/** The findings of every built-in policy that is not off, over one app's declared rules. */
export function builtinFindings(rules: readonly DeclaredRule[], levels: Partial<Record<BuiltinPolicyId, BuiltinPolicyLevel>> = {}): BuiltinFinding[] {
  const findings: BuiltinFinding[] = [];
  for (const policy of BUILTIN_POLICIES) {
    const level = levels[policy] ?? DEFAULT_BUILTIN_LEVEL;
    if (level === 'off') continue;
    const check = policy === 'abusable-allow' ? abusableAllow : operatorMatrix;
    for (const rule of rules) for (const message of check(rule)) findings.push({ policy, level, rule, message });
    // What it did not check is said whenever it runs (any level but off), so that silence at the
    // default level is never read as a pass; docs/behaviour.md and the SARIF rule say what the
    // table covers.
    if (policy === 'operator-matrix') findings.push(...operatorMatrixCoverage(rules));
  }
  return findings;
}

/**
 * The leaves operator-matrix cannot check (their conditionType has no row in the table), said
 * once per app at the first such rule, at the advisory level whatever the policy's level (it
 * never fails a command): no finding about those leaves is not a pass.
 */
function operatorMatrixCoverage(rules: readonly DeclaredRule[]): BuiltinFinding[] {
  const unchecked = rules.flatMap((rule) => rule.conditions.children.flatMap((group) => group.children.filter((leaf) => OPERATOR_MATRIX[leaf.conditionType] === undefined).map((leaf) => ({ rule, type: leaf.conditionType }))));
  const first = unchecked[0];
  if (first === undefined) return [];
  const types = [...new Set(unchecked.map((leaf) => leaf.type))];
  return [{
    policy: 'operator-matrix', level: 'advisory', rule: first.rule, verdict: 'unchecked',
    message: `operator-matrix: checked ${Object.keys(OPERATOR_MATRIX).join(', ')}; not checked: ${types.join(', ')} (${plural(unchecked.length, 'leaf', 'leaves')}, ` +
      `the first in rule ${JSON.stringify(first.rule.name)}): ${OPERATOR_MATRIX_SOURCE}, as botrules read it, gives no operator list for those condition types, so their operators are not known to be supported`,
  }];
}

const ADDRESS_TYPES: ReadonlySet<Leaf['conditionType']> = new Set(['socketIps', 'socketIpASN']);

function abusableAllow(rule: DeclaredRule): string[] {
  if (!rule.actions.includes('allow')) return [];
  const ways = matchingWays(rule.conditions) ?? [];
  const way = ways.find((leaves) => leaves.some((leaf) => leaf.conditionType === 'userAgent') && !leaves.some((leaf) => ADDRESS_TYPES.has(leaf.conditionType)));
  if (way === undefined) return [];
  const on = way.filter((leaf) => leaf.conditionType === 'userAgent').map((leaf) => leafPhrase(leaf, true)).join(' and ');
  return [
    `rule ${JSON.stringify(rule.name)} allows requests on their user agent (${on}) with no IP or ASN condition; anyone can send that user agent, ` +
    'and the service\'s console calls such a rule abusable: add a socketIps or socketIpASN condition to that group, or use an access token for internal traffic',
  ];
}

function operatorMatrix(rule: DeclaredRule): string[] {
  return rule.conditions.children.flatMap((group, g) =>
    group.children.flatMap((leaf, l) => {
      const listed = OPERATOR_MATRIX[leaf.conditionType];
      if (listed === undefined || listed.includes(leaf.operator)) return [];
      return [
        `rule ${JSON.stringify(rule.name)}: conditions.children[${g}].children[${l}] uses ${leaf.operator} on ${leaf.conditionType}, ` +
        `which ${OPERATOR_MATRIX_SOURCE} does not list for it (it lists ${listed.join(', ')}); the service may not store or apply it as written`,
      ];
    }),
  );
}
