// Checks across every rule file of one app: names and ruleIds identify rules, so each may
// appear once. The problem is reported at each repeat and names the first place; `repeats` finds
// the repeats of any list so (apps, tests and policies too).
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
  return repeated(identities.map((i) => i.name), 'rule name');
}

export function uniqueRuleIds(identities: readonly RuleIdentity[]): Problem[] {
  return repeated(identities.map((i) => i.ruleId), 'ruleId');
}

function repeated(entries: readonly (Located<string> | undefined)[], what: string): Problem[] {
  return repeats(entries.filter((entry) => entry !== undefined), (entry) => entry.value).map(([entry, earlier]) => (
    { file: entry.file, line: entry.line, col: entry.col, message: `duplicate ${what} "${entry.value}" (also at ${earlier.file}:${earlier.line}:${earlier.col})` }
  ));
}

/** Each item whose key an earlier item has, with the first item of that key (rules, apps, tests, policies alike). */
export function repeats<T>(items: readonly T[], key: (item: T) => string): [repeat: T, first: T][] {
  const first = new Map<string, T>();
  return items.flatMap((item) => {
    const earlier = first.get(key(item));
    if (earlier === undefined) first.set(key(item), item);
    return earlier === undefined ? [] : [[item, earlier]];
  });
}
