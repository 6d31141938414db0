// A file's change as RFC 6902 JSON Patch operations, addressed by JSON Pointer into the file as
// written (`replace /rules/2/status`, `add /rules/2/ruleId`, `remove /rules/4`, `move`,
// `add /rules/-`), for `import --update --dry-run --format json-patch` (docs/behaviour.md,
// "import --update"). Rules are paired by their live ruleId, so a rule that changed and moved
// is one `move` plus edits of its own fields, not a replacement of every rule after it; inside a
// rule, the operations come from the rule semantics (rule-operations.ts). They are the one
// source of the file's new text (interpret.ts).
import jsonpatch, { type Operation } from 'fast-json-patch';
import { pointerToken } from '../../io/json-pointer.js';

export type { Operation } from 'fast-json-patch';

/** A rule file as parsed (undefined for a file the update creates) and the live ruleId of each of its rules ('' for a rule gone live). */
interface PatchSide {
  document: Record<string, unknown> | undefined;
  ruleIds: readonly string[];
}

interface RuleFileChanges {
  /** The operations inside each declared rule that stays live, by its index in the file, relative to the rule. */
  inside: ReadonlyMap<number, readonly Operation[]>;
  /** Each rule's value as the file will hold it, by live ruleId. */
  valueOf: (ruleId: string) => unknown;
}

/**
 * The operations that turn the file `before` into one holding the rules `afterIds` (none: the
 * file is removed, read as `{}`), checked with fast-json-patch's validate. A rule's own edits
 * come first, at its index as written, so a rule that leaves the file is removed as the file
 * will hold it elsewhere: the interpreter then writes its lines there (finish.ts).
 */
export function filePatch(before: PatchSide, afterIds: readonly string[], changes: RuleFileChanges): Operation[] {
  const from = before.document ?? {};
  const operations = before.document === undefined ? [{ op: 'add' as const, path: '/rules', value: afterIds.map(changes.valueOf) }] : ruleFileOperations(from, before.ruleIds, afterIds, changes);
  const problem = jsonpatch.validate(operations, structuredClone(from));
  if (problem !== undefined) throw new Error(`import --update made an invalid JSON Patch: ${problem.message}`);
  return operations;
}

function ruleFileOperations(from: Record<string, unknown>, fromIds: readonly string[], toIds: readonly string[], changes: RuleFileChanges): Operation[] {
  const operations: Operation[] = [];
  for (const [index, inside] of changes.inside) operations.push(...inside.map((operation) => ({ ...operation, path: `/rules/${index}${operation.path}` })));
  const toIndex = new Set(toIds);
  // Rules that leave the file, from the last so the indices above stay right. Of a file that
  // is removed, only those that live on elsewhere: the rest goes with `rules`.
  const current = [...fromIds];
  for (let index = fromIds.length - 1; index >= 0; index -= 1) {
    const id = fromIds[index] as string;
    if (toIndex.has(id) || (toIds.length === 0 && id === '')) continue;
    operations.push({ op: 'remove', path: `/rules/${index}` });
    current.splice(index, 1);
  }
  if (toIds.length === 0) {
    for (const key of Object.keys(from).filter((k) => k !== 'rules')) operations.push({ op: 'remove', path: `/${pointerToken(key)}` });
    operations.push({ op: 'remove', path: '/rules' });
    return operations;
  }
  // Then every position in the new order: already there, moved up from further down, or added.
  toIds.forEach((id, index) => {
    if (current[index] === id) return;
    const at = current.indexOf(id, index);
    if (at !== -1) {
      operations.push({ op: 'move', from: `/rules/${at}`, path: `/rules/${index}` });
      current.splice(at, 1);
    } else {
      operations.push({ op: 'add', path: index === current.length ? '/rules/-' : `/rules/${index}`, value: changes.valueOf(id) });
    }
    current.splice(index, 0, id);
  });
  return operations;
}
