// How a step's change is shown: a unified diff of the rule's canonical YAML before and
// after the step. Canonical (sets sorted) so reordering never shows as a change. A plan
// loaded from a file has no before/after; then the body's fields are shown as additions.
import { structuredPatch } from 'diff';
import { stringify } from 'yaml';
import { canonicalRule } from '../../plan/canonical.js';
import type { PlanStep } from '../../plan/types.js';
import type { PatchBody, Rule } from '../../rules/model.js';

/** Lines of context around each change. */
const CONTEXT_LINES = 3;

export function canonicalYaml(rule: Rule): string {
  return stringify(canonicalRule(rule), { lineWidth: 0 });
}

/** Unified diff hunks (`@@ … @@`, then ` `, `-`, `+` lines), without file headers. */
export function ruleDiff(before: Rule, after: Rule): string[] {
  const patch = structuredPatch('live', 'declared', canonicalYaml(before), canonicalYaml(after), '', '', {
    context: CONTEXT_LINES,
  });
  return patch.hunks.flatMap((hunk) => [
    `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
    ...hunk.lines.filter((line) => !line.startsWith('\\')),
  ]);
}

/** The fields a body sets (priority aside), as `+` lines of YAML. */
export function bodyLines(body: PatchBody): string[] {
  const { priority: _priority, ...fields } = body;
  if (Object.keys(fields).length === 0) return [];
  return stringify(fields, { lineWidth: 0 })
    .trimEnd()
    .split('\n')
    .map((line) => `+${line}`);
}

/** What to show under a step: the diff when the plan was just computed, else the body. */
export function changeLines(step: PlanStep): string[] {
  const { before, after } = step.display ?? {};
  if (before !== undefined && after !== undefined) return ruleDiff(before, after);
  return bodyLines(step.body);
}
