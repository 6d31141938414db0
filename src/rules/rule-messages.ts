// How schema problems in a rule file are worded. The paths of a rule file have a fixed shape:
//   rules.N                                  a rule
//   rules.N.conditions                       the root of its condition tree
//   rules.N.conditions.children.G            a group
//   rules.N.conditions.children.G.children.L a leaf condition
import { FIELD_OPTION_TYPES } from '../semantics/model.js';
import { describePath, kindOf, typeMessage, type SchemaIssue, type SchemaMessages } from '../io/schema-messages.js';
import type { Path } from '../io/yaml-source.js';
import { isObject } from '../io/json-depth.js';

/** A rule's lifetime keys (docs/behaviour.md, "Rules with a lifetime"). */
const LIFETIME_KEYS: readonly string[] = ['activeFrom', 'expires'];

const TWO_LEVELS = 'conditions must have exactly two levels: root → groups → leaves';

const FIELD_NAMES: Record<string, string> = {
  header: 'the header name',
  queryParam: 'the query parameter name',
  customParam: 'the custom parameter name',
};

export const ruleFileMessages: SchemaMessages = { describe, explain, summarise };

function describe(path: Path): string {
  if (isRulePath(path)) return 'rule';
  if (isRootPath(path)) return 'conditions';
  if (isGroupPath(path)) return 'group';
  if (isLeafPath(path)) return 'condition';
  return describePath(path, { actions: 'action' });
}

function explain(issue: SchemaIssue): string | null | undefined {
  const { keyword, path } = issue;
  // The semantic check `priorityIsPosition` explains a priority key; the schema only marks it for editors.
  if (keyword === 'not' && isRulePath(path.slice(0, -1)) && path.at(-1) === 'priority') return null;
  if (path.length === 0) return explainTopLevel(issue);
  if (isLeafPath(path)) return explainLeaf(issue, issue.data);
  if (isLeafPath(path.slice(0, -1)) && path.at(-1) === 'value') return explainValue(issue, issue.parent);
  if (isLeafPath(path.slice(0, -1)) && path.at(-1) === 'fieldOption' && keyword === 'false schema') {
    return `fieldOption is only for ${FIELD_OPTION_TYPES.join(', ')}, not ${fieldsOf(issue.parent).conditionType}`;
  }
  if (keyword === 'pattern' && isRulePath(path.slice(0, -1)) && LIFETIME_KEYS.includes(String(path.at(-1)))) {
    return `${String(path.at(-1))} must be an ISO 8601 date-time with an offset, such as 2026-12-01T00:00:00Z or 2026-12-01T09:00:00+01:00, not ${JSON.stringify(issue.data)} (without an offset the instant would depend on the machine's time zone)`;
  }
  if (keyword === 'minItems' && path.length === 1 && path[0] === 'rules') return 'rules is an empty list; a rule file lists at least one rule (delete the file instead)';
  return undefined;
}

function explainTopLevel(issue: SchemaIssue): string | undefined {
  if (issue.keyword === 'type') {
    return issue.data === null || issue.data === undefined
      ? 'the file is empty; a rule file holds a mapping with a "rules:" list'
      : `the top level must be a mapping with a "rules:" list, not ${kindOf(issue.data)}`;
  }
  if (issue.keyword === 'required') return 'a rule file holds a mapping with a "rules:" list; "rules:" is missing';
  return undefined;
}

function explainLeaf(issue: SchemaIssue, leaf: unknown): string | undefined {
  if (issue.keyword !== 'required') return undefined;
  const { operator, conditionType } = fieldsOf(leaf);
  if (issue.params.missingProperty === 'value') return `value is required for operator ${operator}`;
  if (issue.params.missingProperty === 'fieldOption') {
    return `${conditionType} needs fieldOption (${FIELD_NAMES[conditionType] ?? 'the field name'})`;
  }
  return undefined;
}

function explainValue(issue: SchemaIssue, leaf: unknown): string | undefined {
  const { operator } = fieldsOf(leaf);
  switch (issue.keyword) {
    case 'false schema':
      return `value must not be given for operator ${operator}`;
    case 'minItems':
      return `value must list at least one string for operator ${operator}`;
    case 'type': {
      const expected = String(issue.params.type).split(',');
      if (expected.includes('array')) return typeMessage('value', expected, issue.data, ` for operator ${operator}`);
      if (Array.isArray(issue.data)) return `value must be a single string for operator ${operator} (use $in for a list)`;
      return typeMessage('value', expected, issue.data, ` for operator ${operator}`);
    }
    default:
      return undefined;
  }
}

/** A wrongly nested tree yields many schema errors; one sentence says what is wrong. */
function summarise(path: Path, data: unknown): string | undefined {
  if (!isObject(data)) return undefined;
  const looksLikeLeaf = 'conditionType' in data && !('children' in data);
  if (isLeafPath(path) && 'children' in data) return `${TWO_LEVELS}; this leaf has "children"`;
  if (isGroupPath(path) && looksLikeLeaf) return `${TWO_LEVELS}; this group is a leaf condition (put it in the "children" of a group)`;
  if (isRootPath(path) && looksLikeLeaf) return `${TWO_LEVELS}; found a leaf condition directly under "conditions"`;
  return undefined;
}

function fieldsOf(leaf: unknown): { operator: string; conditionType: string } {
  const record = isObject(leaf) ? leaf : {};
  return { operator: String(record.operator), conditionType: String(record.conditionType) };
}

function isRulePath(path: Path): boolean {
  return path.length === 2 && path[0] === 'rules' && typeof path[1] === 'number';
}

function isRootPath(path: Path): boolean {
  return path.length === 3 && isRulePath(path.slice(0, 2)) && path[2] === 'conditions';
}

function isGroupPath(path: Path): boolean {
  return path.length === 5 && isRootPath(path.slice(0, 3)) && path[3] === 'children' && typeof path[4] === 'number';
}

function isLeafPath(path: Path): boolean {
  return path.length === 7 && isGroupPath(path.slice(0, 5)) && path[5] === 'children' && typeof path[6] === 'number';
}
