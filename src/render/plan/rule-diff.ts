// How a step's change is shown: a unified diff of the changed fields only, as canonical
// YAML, before (the live value) and after (the value sent). Built from the step's typed
// changes, so a fresh plan, a saved plan and an undo plan show the same lines. Canonical
// (sets sorted) so reordering leaves, groups or actions never shows as a change, and a
// change inside `conditions` shows as the lines of the groups and leaves that differ.
import { structuredPatch } from 'diff';
import { stringify } from 'yaml';
import { canonicalActions, canonicalConditions } from '../../semantics/canonical.js';
import { fieldChanges, type FieldChange, type PlanStep } from '../../plan/types.js';
import { definedFields } from '../../defined.js';

/** Lines of context around each change. */
const CONTEXT_LINES = 3;

/**
 * The most line edits a shown diff may take. Finding a diff costs about (lines × edits):
 * a live rule of 100,000 leaves replaced whole took minutes to render. Beyond this the change
 * is summarised in one line, the same on every machine (no clock involved).
 */
export const MAX_EDIT_LENGTH = 2000;

/** The most the changed fields of one rule may weigh (as JSON, both sides) to be shown as a diff. */
const MAX_SHOWN_CHARS = 1024 * 1024;

/** The one line shown instead of a diff too large to compute. */
export const TOO_LARGE_TO_SHOW = '(the change is too large to show line by line; plan --format json has it whole)';

/** Unified diff hunks (`@@ … @@`, then ` `, `-`, `+` lines) of the step's changed fields. */
export function changeLines(step: PlanStep): string[] {
  const changes = fieldChanges(step);
  if (changes.length === 0) return [];
  const before = Object.fromEntries(changes.map((change) => [change.field, shown(change, 'before')]));
  const after = Object.fromEntries(changes.map((change) => [change.field, shown(change, 'after')]));
  // Writing a huge rule as YAML costs more than the diff itself: measured first, as JSON.
  if (JSON.stringify(before).length + JSON.stringify(after).length > MAX_SHOWN_CHARS) return [TOO_LARGE_TO_SHOW];
  const patch = structuredPatch('live', 'plan', yamlOf(before), yamlOf(after), '', '', { context: CONTEXT_LINES, maxEditLength: MAX_EDIT_LENGTH });
  if (patch === undefined) return [TOO_LARGE_TO_SHOW];
  return patch.hunks.flatMap((hunk) => [
    `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
    ...hunk.lines.filter((line) => !line.startsWith('\\')),
  ]);
}

/** The rule a create step sends, as `+` lines of canonical YAML (its position is said elsewhere). */
export function createdLines(step: PlanStep): string[] {
  if (step.kind !== 'create') return [];
  const { priority: _priority, ...fields } = step.body;
  if (JSON.stringify(fields).length > MAX_SHOWN_CHARS) return [TOO_LARGE_TO_SHOW];
  const shownFields = { ...fields, ...definedFields({ actions: fields.actions && canonicalActions(fields.actions), conditions: fields.conditions && canonicalConditions(fields.conditions) }) };
  return yamlOf(shownFields).trimEnd().split('\n').map((line) => `+${line}`);
}

function shown(change: FieldChange, side: 'before' | 'after'): unknown {
  if (change.field === 'conditions') return canonicalConditions(change[side]);
  if (change.field === 'actions') return canonicalActions(change[side]);
  return change[side];
}

function yamlOf(fields: Record<string, unknown>): string {
  return stringify(fields, { lineWidth: 0 });
}
