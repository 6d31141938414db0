// Fields botrules does not know, in a rule file (docs/behaviour.md, "Unknown fields"). The
// service may store fields this version does not know (the console or a newer API version
// adds them), `import` writes them, and the planner keeps them as data; so the schema allows
// them and `validate` names each one in a warning. A key one or two letters away from a
// known field is a typo, not data: that stays an error listing the allowed keys.
import type { Problem } from '../../errors.js';
import type { Path } from '../../io/yaml-source.js';
import { KNOWN_FIELDS, unknownFieldNames, type Level } from '../../semantics/unknown.js';
import type { Where } from './where.js';
import { isObject } from '../../io/json-depth.js';

/** The keys a rule file may write at each level, as the schema lists them (`priority` is refused elsewhere). */
const WRITABLE: Record<Level, readonly string[]> = {
  rule: ['name', 'ruleId', 'description', 'status', 'actions', 'conditions'],
  tree: KNOWN_FIELDS.tree,
  leaf: ['conditionType', 'operator', 'fieldOption', 'value'],
};

/**
 * Never data: `priority` (position is priority) and a leaf's `children` (two levels) have
 * their own errors, and `source` is where botrules records a declared rule's place.
 */
const NOT_DATA = new Set(['priority', 'source', 'children']);

const LABEL: Record<Level | 'group', string> = { rule: 'rule', tree: 'conditions', group: 'group', leaf: 'condition' };

interface UnknownFieldFindings {
  problems: Problem[];
  warnings: Problem[];
}

/**
 * Problems (typos of known keys) and warnings (unknown fields, kept) for one written rule,
 * at every level the two-level tree shape reaches. `name` names the rule in warnings.
 */
export function unknownFieldFindings(rule: Readonly<Record<string, unknown>>, where: Where): UnknownFieldFindings {
  const found: UnknownFieldFindings = { problems: [], warnings: [] };
  const name = typeof rule.name === 'string' ? rule.name : '';
  const check = (part: unknown, level: Level, label: string, path: Path): void => {
    if (!isObject(part)) return;
    for (const field of unknownFieldNames(part, level)) {
      if (NOT_DATA.has(field)) continue;
      const known = WRITABLE[level];
      if (looksLikeTypo(field, [...known, ...NOT_DATA])) {
        found.problems.push(where.at([...path, field], `unknown key "${field}" in ${label} (allowed: ${known.join(', ')})`, { key: true }));
      } else {
        found.warnings.push(
          where.at(
            [...path, field],
            `rule "${name}": "${field}" in ${label} is a field botrules does not know; it is kept as it is (never compared, never sent on its own)`,
            { key: true },
          ),
        );
      }
    }
  };
  check(rule, 'rule', LABEL.rule, []);
  const root = rule.conditions;
  check(root, 'tree', LABEL.tree, ['conditions']);
  const groups = isObject(root) && Array.isArray(root.children) ? root.children : [];
  groups.forEach((group: unknown, g) => {
    const groupPath: Path = ['conditions', 'children', g];
    // A leaf written where a group belongs is an error of its own (two levels): its fields are
    // not unknown fields of a group, and a warning that they are kept would contradict it.
    if (isObject(group) && 'conditionType' in group) return;
    check(group, 'tree', LABEL.group, groupPath);
    const leaves = isObject(group) && Array.isArray(group.children) ? group.children : [];
    leaves.forEach((leaf: unknown, l) => check(leaf, 'leaf', LABEL.leaf, [...groupPath, 'children', l]));
  });
  return found;
}

/** A key within two edits of a known one (or equal to it but for case) is a misspelling. */
function looksLikeTypo(field: string, known: readonly string[]): boolean {
  const lower = field.toLowerCase();
  return known.some((name) => name.toLowerCase() === lower || editDistance(lower, name.toLowerCase()) <= 2);
}

/** Optimal string alignment distance (a transposition counts as one edit). */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const row = rows[i] as number[];
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = best;
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}
