// Checks across every rule file of one app: names and ruleIds identify rules, so each may
// appear once. The problem is reported at each repeat and names the first place.
import type { Problem } from '../../errors.js';
import type { SourceLocation } from '../../semantics/model.js';

export interface Located<T> extends SourceLocation {
  value: T;
}

/** What identifies a written rule, with where each part was written. */
export interface RuleIdentity {
  name?: Located<string>;
  ruleId?: Located<string>;
}

export function uniqueNames(identities: readonly RuleIdentity[]): Problem[] {
  return repeats(identities.map((i) => i.name), 'rule name');
}

export function uniqueRuleIds(identities: readonly RuleIdentity[]): Problem[] {
  return repeats(identities.map((i) => i.ruleId), 'ruleId');
}

function repeats(entries: readonly (Located<string> | undefined)[], what: string): Problem[] {
  const first = new Map<string, Located<string>>();
  const problems: Problem[] = [];
  for (const entry of entries) {
    if (!entry) continue;
    const earlier = first.get(entry.value);
    if (!earlier) {
      first.set(entry.value, entry);
      continue;
    }
    const place = `${earlier.file}:${earlier.line}:${earlier.col}`;
    problems.push({ file: entry.file, line: entry.line, col: entry.col, message: `duplicate ${what} "${entry.value}" (also at ${place})` });
  }
  return problems;
}
