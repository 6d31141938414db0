// Matching declared rules with live rules (docs/behaviour.md, "Plan semantics"): by `ruleId` when the file pins
// one, else by exact name. A declared rule that matches nothing is blocked (the API cannot
// create rules); a live rule that nothing matches is unmanaged. Every ambiguity is an error
// located at the declared rule, so the user knows which file to fix. The planner and
// `import --update` both match here; they differ only in the policy for a pinned ruleId
// that is not live (an error for the planner, a rule gone live for the update).
import type { Problem } from '../errors.js';
import type { Action, DeclaredRule, LiveRule, SourceLocation } from './model.js';

/**
 * A declared rule with no live counterpart: the API cannot create rules. That is its reason,
 * the only one; a plan file words it (src/render/plan/reasons.ts).
 */
export interface BlockedRule {
  name: string;
  /** Where the rule is declared. */
  source?: SourceLocation;
  /** The console position (1 = first) to create it at, counted once the plan's other changes have run. */
  position?: number;
  /** The name of the declared rule it follows, when there is one: "directly below" it in the console. */
  below?: string;
  /** The declared rule's actions: what the new rule will do once created. */
  actions?: Action[];
}

interface MatchPolicy {
  /**
   * A declared ruleId that no live rule has: `problem` (plan: the file must be fixed) or
   * `unmatched` (import --update: the rule is gone live, like a name nothing matches).
   */
  missingRuleId: 'problem' | 'unmatched';
}

const PLANNER_POLICY: MatchPolicy = { missingRuleId: 'problem' };

export interface Match {
  declared: DeclaredRule;
  live: LiveRule;
}

interface MatchResult {
  /** In declared order. */
  matches: Match[];
  blocked: BlockedRule[];
  /** Live rules no declared rule matched, in the order they were given. */
  unmanaged: LiveRule[];
  problems: Problem[];
}

export function matchRules(declared: readonly DeclaredRule[], live: readonly LiveRule[], policy: MatchPolicy = PLANNER_POLICY): MatchResult {
  const liveById = new Map(live.map((rule) => [rule.ruleId, rule]));
  const liveByName = groupByName(live);
  const claimedBy = new Map<string, DeclaredRule>();
  const result: MatchResult = { matches: [], blocked: [], unmanaged: [], problems: [] };

  for (const rule of declared) {
    const found = findLiveRule(rule, liveById, liveByName, policy);
    if (found.kind === 'problem') {
      result.problems.push(problemAt(rule.source, found.message));
      continue;
    }
    if (found.kind === 'none') {
      result.blocked.push(blockedRule(rule));
      continue;
    }
    const earlier = claimedBy.get(found.rule.ruleId);
    if (earlier !== undefined) {
      result.problems.push(problemAt(rule.source, doubleClaimMessage(rule, earlier, found.rule)));
      continue;
    }
    claimedBy.set(found.rule.ruleId, rule);
    result.matches.push({ declared: rule, live: found.rule });
  }
  result.unmanaged = live.filter((rule) => !claimedBy.has(rule.ruleId));
  return result;
}

type Found = { kind: 'rule'; rule: LiveRule } | { kind: 'none' } | { kind: 'problem'; message: string };

function findLiveRule(
  rule: DeclaredRule,
  liveById: ReadonlyMap<string, LiveRule>,
  liveByName: ReadonlyMap<string, LiveRule[]>,
  policy: MatchPolicy,
): Found {
  if (rule.recreate === true) return { kind: 'none' };
  if (rule.ruleId !== undefined) {
    const pinned = liveById.get(rule.ruleId);
    if (pinned !== undefined) return { kind: 'rule', rule: pinned };
    if (policy.missingRuleId === 'unmatched') return { kind: 'none' };
    return {
      kind: 'problem',
      message:
        `ruleId ${rule.ruleId} of rule "${rule.name}" does not exist live (deleted in the console?): ` +
        'remove the ruleId to match by name, or re-import',
    };
  }
  const sameName = liveByName.get(rule.name) ?? [];
  const [only] = sameName;
  if (only === undefined) return { kind: 'none' };
  if (sameName.length === 1) return { kind: 'rule', rule: only };
  const ids = sameName.map((r) => r.ruleId);
  return {
    kind: 'problem',
    message:
      `rule "${rule.name}" matches ${ids.length} live rules of that name (${ids.join(', ')}): ` +
      `pin the one you mean with "ruleId: ${only.ruleId}" (or another of those ids), or rename the others in the console`,
  };
}

function doubleClaimMessage(rule: DeclaredRule, earlier: DeclaredRule, live: LiveRule): string {
  const where = `${earlier.source.file}:${earlier.source.line}:${earlier.source.col}`;
  return (
    `rule "${rule.name}" matches the same live rule "${live.name}" (${live.ruleId}) as rule "${earlier.name}" ` +
    `at ${where}: a live rule can be declared only once; remove one of them or give it its own ruleId`
  );
}

function blockedRule(rule: DeclaredRule): BlockedRule {
  return {
    name: rule.name,
    // What to do about it is one sentence of the renderers (BLOCKED_ADVICE), said once for all.
    source: { ...rule.source },
  };
}

function groupByName(live: readonly LiveRule[]): Map<string, LiveRule[]> {
  const byName = new Map<string, LiveRule[]>();
  for (const rule of live) {
    const list = byName.get(rule.name);
    if (list === undefined) byName.set(rule.name, [rule]);
    else list.push(rule);
  }
  return byName;
}

export function problemAt(source: SourceLocation, message: string): Problem {
  return { file: source.file, line: source.line, col: source.col, message };
}
