// How a step's change is shown: a unified diff of the changed fields only, as canonical
// YAML, before (the live value) and after (the value sent). Built from the step's typed
// changes, so a fresh plan, a saved plan and an undo plan show the same lines. Canonical
// (sets sorted) so reordering leaves, groups or actions never shows as a change, and a
// change inside `conditions` shows as the lines of the groups and leaves that differ.
import { structuredPatch } from 'diff';
import { stringify } from 'yaml';
import { canonicalConditions } from '../../semantics/canonical.js';
import { fieldChanges, type FieldChange, type PlanStep } from '../../plan/types.js';

/** Lines of context around each change. */
const CONTEXT_LINES = 3;

/** Unified diff hunks (`@@ … @@`, then ` `, `-`, `+` lines) of the step's changed fields. */
export function changeLines(step: PlanStep): string[] {
  const changes = fieldChanges(step);
  if (changes.length === 0) return [];
  const before = Object.fromEntries(changes.map((change) => [change.field, shown(change, 'before')]));
  const after = Object.fromEntries(changes.map((change) => [change.field, shown(change, 'after')]));
  const patch = structuredPatch('live', 'plan', yamlOf(before), yamlOf(after), '', '', { context: CONTEXT_LINES });
  return patch.hunks.flatMap((hunk) => [
    `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
    ...hunk.lines.filter((line) => !line.startsWith('\\')),
  ]);
}

function shown(change: FieldChange, side: 'before' | 'after'): unknown {
  if (change.field === 'conditions') return canonicalConditions(change[side]);
  if (change.field === 'actions') return [...new Set(change[side])].sort();
  return change[side];
}

function yamlOf(fields: Record<string, unknown>): string {
  return stringify(fields, { lineWidth: 0 });
}
