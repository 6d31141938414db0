// The operations that make one declared rule, as its file writes it, say what its live rule
// says, from the shared rule semantics (src/semantics/canonical.ts): fields compared in their
// normal form, groups and leaves as sets. A group or leaf that means the same and carries the
// same unknown fields stays where it is; one that means the same but whose unknown fields
// differ has only those edited; groups left over are paired in order and edited, and what is
// left after that is removed (from the last) or added at the end. Paths are relative to the
// rule ("/status"); every value is what the file will hold (src/semantics/written.ts).
import type { Operation } from 'fast-json-patch';
import { canonicalRule, changedFields, exactGroupKey, exactLeafKey, leafKey } from '../../semantics/canonical.js';
import type { Conditions, DeclaredRule, Group, Leaf, LiveRule } from '../../semantics/model.js';
import { unknownFields, type Level } from '../../semantics/unknown.js';
import { writtenConditions, writtenLeaf, writtenRule } from '../../semantics/written.js';
import { jsonDiff } from './json-diff.js';

type Json = Record<string, unknown>;

/** `written`: the rule as parsed from its file; `declared`: the same in normal form (the loader's). */
export function ruleOperations(written: Json, declared: DeclaredRule, live: LiveRule): Operation[] {
  const before = canonicalRule(declared);
  const after = canonicalRule(live);
  const target = writtenRule(live);
  const operations: Operation[] = [];
  if (written.ruleId === undefined) operations.push({ op: 'add', path: '/ruleId', value: live.ruleId });
  for (const field of ['name', 'description', 'status'] as const) {
    if (before[field] !== after[field]) operations.push(setField(written, '', field, target[field]));
  }
  if (JSON.stringify(before.actions) !== JSON.stringify(after.actions)) operations.push(...jsonDiff(written.actions, target.actions, '/actions'));
  operations.push(...treeOperations(written.conditions as Json, declared.conditions, live.conditions));
  operations.push(...unknownOperations(written, live, 'rule', ''));
  return operations;
}

/** The fields the operations change, by name, for the command's report ("ruleId" when the file had none). */
export function changedFieldNames(declared: DeclaredRule, live: LiveRule): string[] {
  const fields = [...(declared.ruleId === undefined ? ['ruleId'] : []), ...changedFields(live, declared)];
  return fields.length > 0 ? fields : ['fields botrules does not know'];
}

function treeOperations(written: Json, declared: Conditions, live: Conditions): Operation[] {
  const path = '/conditions';
  const operations: Operation[] = [];
  if (declared.operator !== live.operator) operations.push(setField(written, path, 'operator', live.operator));
  operations.push(...unknownOperations(written, live, 'tree', path));
  const groups = (written.children ?? []) as Json[];
  const target = writtenConditions({ operator: live.operator, children: live.children }).children as Json[];
  operations.push(
    ...setOperations(declared.children, live.children, exactGroupKey, () => true, `${path}/children`, target, (index, liveIndex) =>
      groupOperations(groups[index] as Json, declared.children[index] as Group, live.children[liveIndex] as Group, `${path}/children/${index}`),
    ),
  );
  return operations;
}

function groupOperations(written: Json, declared: Group, live: Group, path: string): Operation[] {
  const operations: Operation[] = [];
  if (declared.operator !== live.operator) operations.push(setField(written, path, 'operator', live.operator));
  operations.push(...unknownOperations(written, live, 'tree', path));
  const leaves = (written.children ?? []) as Json[];
  const target = live.children.map(writtenLeaf);
  const sameMeaning = (a: Leaf, b: Leaf): boolean => leafKey(a) === leafKey(b);
  operations.push(
    ...setOperations(declared.children, live.children, exactLeafKey, sameMeaning, `${path}/children`, target, (index, liveIndex) =>
      unknownOperations(leaves[index] as Json, live.children[liveIndex] as Leaf, 'leaf', `${path}/children/${index}`),
    ),
  );
  return operations;
}

/**
 * Two lists as sets: items with equal keys stay; of the rest, the first pairs that `pairs`
 * accepts are edited with `edit`; then the unpaired declared items are removed, from the last,
 * and the unpaired live ones added at the end (as `target` writes them).
 */
function setOperations<T>(declared: readonly T[], live: readonly T[], key: (item: T) => string, pairs: (a: T, b: T) => boolean, path: string, target: readonly unknown[], edit: (index: number, liveIndex: number) => Operation[]): Operation[] {
  const liveLeft = live.map((_, index) => index);
  const declaredLeft: number[] = [];
  declared.forEach((item, index) => {
    const at = liveLeft.findIndex((l) => key(live[l] as T) === key(item));
    if (at === -1) declaredLeft.push(index);
    else liveLeft.splice(at, 1);
  });
  const operations: Operation[] = [];
  const removed: number[] = [];
  for (const index of declaredLeft) {
    const at = liveLeft.findIndex((l) => pairs(declared[index] as T, live[l] as T));
    if (at === -1) {
      removed.push(index);
      continue;
    }
    operations.push(...edit(index, liveLeft[at] as number));
    liveLeft.splice(at, 1);
  }
  for (const index of removed.reverse()) operations.push({ op: 'remove', path: `${path}/${index}` });
  for (const index of liveLeft) operations.push({ op: 'add', path: `${path}/-`, value: target[index] });
  return operations;
}

/** A known field set to `value`: replaced where the file has it, else added. */
function setField(written: Json, path: string, field: string, value: unknown): Operation {
  return field in written ? { op: 'replace', path: `${path}/${field}`, value } : { op: 'add', path: `${path}/${field}`, value };
}

/** The unknown fields of the written part made those of the live part. */
function unknownOperations(written: Json, live: object, level: Level, path: string): Operation[] {
  return jsonDiff(unknownFields(written, level), unknownFields(live, level), path);
}
