// Every rule change of the plan on the first screen of the Markdown plan (markdown.ts): one
// row per rule, what changes, before → after in a few words. Updates, moves and pauses come
// from the steps; new rules from the blocked list (the API cannot create them); deleted rule
// files from the rules removed from the files. The diffs, the moves and the behaviour classes
// follow further down. Cells go through the sanitiser (cell, markdownText).
import { positionChanges, unmanagedFate, type Plan } from '../../plan/plan-value.js';
import { fieldChanges, positionChange, type AppPlan, type FieldChange, type PlanStep } from '../../plan/types.js';
import { leafPhrase } from '../../diff/describe.js';
import type { Conditions, Leaf } from '../../semantics/model.js';
import { cell, markdownText, table } from '../markdown.js';
import { noun, plural } from '../../plural.js';

/** Rows before "… and N more": the table must leave the alerts and the summary on the first screen. */
const CHANGE_ROWS = 25;
/** Condition leaves named per side of a changed `conditions` before "… and N more". */
const LEAVES_SHOWN = 2;
/** Characters of a description shown before "…". */
const DESCRIPTION_SHOWN = 40;

interface ChangeRow {
  app: string;
  name: string;
  change: string;
  before: string;
  after: string;
}

/** The heading and the table, or nothing when no rule changes. */
export function changesTable(plan: Plan): string[] {
  const showApp = plan.apps.length > 1;
  const rows = plan.apps.flatMap(appRows);
  if (rows.length === 0) return [];
  const shown = rows.slice(0, CHANGE_ROWS).map((row) => [
    `${showApp ? `${cell(row.app)} · ` : ''}**${cell(row.name)}**`,
    cell(row.change),
    cell(row.before),
    cell(row.after),
  ]);
  const lines = [`#### Rule changes (${plural(rows.length, 'rule')})`, '', ...table(['rule', 'change', 'before', 'after'], shown)];
  const more = rows.length - shown.length;
  if (more > 0) lines.push('', `_… and ${more} more; each is in the sections below._`);
  const shifted = plan.apps.reduce((sum, app) => sum + shiftedRules(app), 0);
  // The plan knows these only by position: said, so the table is not taken for every rule that moves.
  if (shifted > 0) lines.push('', `_The moves shift ${plural(shifted, 'other rule')} by a position or more, without a PATCH of ${noun(shifted, 'its', 'their')} own (see Moves below)._`);
  return [...lines, ''];
}

/** Rules that end at another position only because the moves shift them. */
function shiftedRules(app: AppPlan): number {
  const moved = app.steps.filter((step) => {
    const change = positionChange(step);
    return change !== undefined && change.before !== change.after;
  }).length;
  return Math.max(0, positionChanges(app) - moved);
}

/** The steps in the order they run, then the new rules, then the deleted files. */
function appRows(app: AppPlan): ChangeRow[] {
  const steps = app.steps.map((step) => stepRow(app.app, step));
  const created = app.blocked.map((rule) => ({
    app: app.app,
    name: rule.name,
    change: 'new rule: blocked, the API cannot create it (steps below)',
    before: 'not live',
    after: [rule.actions?.join(', '), rule.position === undefined ? undefined : `position ${rule.position}`].filter((part) => part !== undefined).join(', '),
  }));
  const deleted = app.unmanaged.filter((rule) => rule.removedFromFiles === true).map((rule) => ({
    app: app.app,
    name: rule.name,
    change: 'file deleted: the service cannot delete rules',
    // Plans saved before the status was recorded have none: the rule was active then.
    before: rule.status === 'paused' ? 'paused' : 'active',
    after: deletedAfter(unmanagedFate(app, rule)),
  }));
  return [...steps, ...created, ...deleted];
}

function deletedAfter(fate: string): string {
  if (fate === 'stays live and ACTIVE') return 'stays live and ACTIVE';
  return fate === 'paused by this plan' ? 'paused by this plan' : 'stays live, paused';
}

function stepRow(app: string, step: PlanStep): ChangeRow {
  if (step.kind === 'pause-unmanaged') return { app, name: step.name, change: 'paused: in no rule file', before: 'active', after: 'paused' };
  const parts = fieldChanges(step).map(fieldParts);
  const position = positionChange(step);
  if (position !== undefined) parts.push({ field: 'position', before: `position ${position.before + 1}`, after: `position ${position.after + 1}` });
  return {
    app,
    name: step.name,
    change: parts.map((part) => part.field).join(', '),
    before: parts.map((part) => part.before).join('; '),
    after: parts.map((part) => part.after).join('; '),
  };
}

function fieldParts(change: FieldChange): { field: string; before: string; after: string } {
  switch (change.field) {
    case 'conditions':
      return { field: 'conditions', ...conditionWords(change.before, change.after) };
    case 'actions':
      return { field: 'actions', before: change.before.join(', '), after: change.after.join(', ') };
    case 'description':
      return { field: 'description', before: quoted(change.before), after: quoted(change.after) };
    case 'name':
      return { field: 'name', before: JSON.stringify(change.before), after: JSON.stringify(change.after) };
    default:
      return { field: change.field, before: String(change.before), after: String(change.after) };
  }
}

function quoted(text: string): string {
  if (text === '') return '(empty)';
  return JSON.stringify(text.length > DESCRIPTION_SHOWN ? `${text.slice(0, DESCRIPTION_SHOWN - 1)}…` : text);
}

/** The leaves only one side has, in words: `user agent containing "BadBot"` → `… "BadBot/2"`. */
function conditionWords(before: Conditions, after: Conditions): { before: string; after: string } {
  const keyed = (conditions: Conditions): Map<string, Leaf> => new Map(conditions.children.flatMap((group) => group.children).map((leaf) => [JSON.stringify(leaf), leaf]));
  const was = keyed(before);
  const will = keyed(after);
  const gone = [...was].filter(([key]) => !will.has(key)).map(([, leaf]) => leaf);
  const added = [...will].filter(([key]) => !was.has(key)).map(([, leaf]) => leaf);
  if (gone.length === 0 && added.length === 0) return { before: 'conditions grouped otherwise', after: 'the same conditions, regrouped (diff below)' };
  return { before: leafList(gone), after: leafList(added) };
}

function leafList(leaves: readonly Leaf[]): string {
  if (leaves.length === 0) return '(no condition removed)';
  const shown = leaves.slice(0, LEAVES_SHOWN).map((leaf) => leafPhrase(leaf, true));
  const more = leaves.length - shown.length;
  return `${shown.join(' · ')}${more > 0 ? ` · … and ${more} more` : ''}`;
}

/** Caution items for the new rules: what each will do, though this plan cannot create it. */
export function newRuleItems(plan: Plan): string[] {
  const showApp = plan.apps.length > 1;
  return plan.apps.flatMap((app) =>
    app.blocked.map((rule) => {
      const actions = rule.actions === undefined ? '' : ` (${markdownText(rule.actions.join(', '))})`;
      return `${showApp ? `${markdownText(app.app)}: ` : ''}**${markdownText(rule.name)}**${actions} is new: the API cannot create it, so nothing is applied until it is created in the console (steps below)`;
    }),
  );
}
