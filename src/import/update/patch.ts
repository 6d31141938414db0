// A file's change as RFC 6902 JSON Patch operations, addressed by JSON Pointer into the file as
// written (`replace /rules/2/status`, `add /rules/2/ruleId`, `remove /rules/4`, `move`,
// `add /rules/-`), for `import --update --dry-run --format json-patch` (docs/behaviour.md,
// "import --update"). Rules are paired by their live ruleId, so a rule that changed and moved
// is one `move` plus edits of its own fields, not a replacement of every rule after it; inside a
// rule, the operations are those between the rule as written and as the update writes it, its
// groups and leaves compared as lists whose unchanged items stay (json-diff.ts).
import jsonpatch, { type Operation } from 'fast-json-patch';
import { jsonDiff } from './json-diff.js';

export type { Operation } from 'fast-json-patch';

/**
 * One side of a file's change: the file as parsed (undefined when the file does not exist,
 * read as `{}`) and the live ruleId of each rule ('' for a rule gone live). The caller has
 * the parsed values already: parsing a rule file again would cost more than the update.
 */
export interface PatchSide {
  document: Record<string, unknown> | undefined;
  ruleIds: readonly string[];
}

/** The operations that turn the file's parsed `before` into its parsed `after`, checked with fast-json-patch's validate. */
export function filePatch(before: PatchSide, after: PatchSide): Operation[] {
  const from = before.document ?? {};
  const to = after.document ?? {};
  const operations = isRuleFile(from) && isRuleFile(to) ? ruleFileOperations(from, before.ruleIds, to, after.ruleIds) : jsonDiff(from, to, '');
  const problem = jsonpatch.validate(operations, structuredClone(from));
  if (problem !== undefined) throw new Error(`import --update made an invalid JSON Patch: ${problem.message}`);
  return operations;
}

type RuleFileJson = Record<string, unknown> & { rules: unknown[] };

function isRuleFile(value: Record<string, unknown>): value is RuleFileJson {
  return Array.isArray(value.rules);
}

function ruleFileOperations(from: RuleFileJson, fromIds: readonly string[], to: RuleFileJson, toIds: readonly string[]): Operation[] {
  const { rules: fromRules, ...fromRest } = from;
  const { rules: toRules, ...toRest } = to;
  const operations: Operation[] = jsonDiff(fromRest, toRest, '');
  const toIndex = new Map(toIds.map((id, index) => [id, index]));
  // Edits of each rule that stays in the file, at its old index (they travel with a move).
  fromIds.forEach((id, index) => {
    const at = toIndex.get(id);
    if (at !== undefined) operations.push(...jsonDiff(fromRules[index], toRules[at], `/rules/${index}`));
  });
  // Rules that leave the file, from the last so the indices above stay right.
  const current = [...fromIds];
  for (let index = fromIds.length - 1; index >= 0; index -= 1) {
    const id = fromIds[index] as string;
    if (toIndex.has(id)) continue;
    operations.push({ op: 'remove', path: `/rules/${index}` });
    current.splice(index, 1);
  }
  // Then every position in the new order: already there, moved up from further down, or added.
  toIds.forEach((id, index) => {
    if (current[index] === id) return;
    const at = current.indexOf(id, index);
    if (at !== -1) {
      operations.push({ op: 'move', from: `/rules/${at}`, path: `/rules/${index}` });
      current.splice(at, 1);
    } else {
      operations.push({ op: 'add', path: index === current.length ? '/rules/-' : `/rules/${index}`, value: toRules[index] });
    }
    current.splice(index, 0, id);
  });
  return operations;
}
