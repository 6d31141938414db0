// The parts of the Markdown plan (markdown.ts): the alerts a reviewer reads first, the summary
// table, blocked rules with their console steps, the rules not in the files and the moves as
// tables. Cells and prose from rule files or the service go through markdownText.
import { countSteps, positionChanges, removedLeftActive, type Plan } from '../../plan/plan-value.js';
import { excessSentence } from './refusals.js';
import { blockedSentence, CREATE_INSTEAD_ADVICE } from './refusals.js';
import type { ReviewedPlan } from './review.js';
import { fieldChanges, positionChange, type AppPlan } from '../../plan/types.js';
import { isLoosening } from '../diff/words.js';
import { cell, htmlCode, markdownText, table } from '../markdown.js';
import { ATTENTION_HEADING, REMOVED_ACTIVE, consoleSteps, lifecycleCautions, unmanagedInOrder, unmanagedText, whatChanges, type Quoting } from './describe.js';
import { plural } from '../../plural.js';
import { newRuleItems } from './markdown-changes.js';
import { looseningWords } from './reasons.js';

export interface Section {
  kind: 'blocked' | 'unmanaged' | 'lifecycle' | 'behaviour' | 'behaviourDiff' | 'moves' | 'heading' | 'step' | 'note';
  text: string;
}

/** Items in the first alert before "… and N more": the alerts must fit the first screen. */
const ALERT_ITEMS = 10;
/** Rows of the moves table before "… and N more moves". */
const MOVE_ROWS = 300;

const MARKDOWN_QUOTING: Quoting = { name: (name) => `**${markdownText(name)}**`, code: (command) => `\`${command}\`` };

/**
 * The alerts above everything else: what the plan loosens (rules removed from the files but
 * left active, weakened actions, paused or overtaken blocking rules, changed test outcomes),
 * then the change limit `apply` enforces. Empty when there is nothing to warn about.
 */
export function alerts({ plan, review }: ReviewedPlan): string[] {
  const showApp = plan.apps.length > 1;
  const items = [
    ...plan.apps.flatMap((app) =>
      removedLeftActive(app).map((rule) => `${showApp ? `${markdownText(app.app)}: ` : ''}**${markdownText(rule.name)}** ${REMOVED_ACTIVE}`),
    ),
    ...plan.apps.flatMap((app) =>
      lifecycleCautions(app).map((caution) =>
        `${showApp ? `${markdownText(app.app)}: ` : ''}**${markdownText(caution.name)}** ${caution.ruleId === undefined ? '' : `${htmlCode(caution.ruleId)} `}${markdownText(caution.what)}`),
    ),
    ...review.risks.map((risk) => `${showApp ? `${markdownText(risk.app)}: ` : ''}**${markdownText(risk.name)}** ${markdownText(looseningWords(risk.loosens))}`),
    ...newRuleItems(plan),
  ];
  const changed = review.behaviour?.changes.length ?? 0;
  if (changed > 0) items.push(`It changes the outcome of ${changed} of the ${plural(review.behaviour?.tests ?? 0, 'test request')} (listed below).`);
  const loosened = (review.behaviourDiff ?? []).flatMap((diff) => diff.changes.filter(isLoosening)).reduce((sum, change) => sum + change.classes.length, 0);
  if (loosened > 0) items.push(`It allows, or blocks less strongly, ${plural(loosened, 'class', 'classes')} of requests (listed below).`);
  const lines: string[] = [];
  if (items.length > 0) {
    const shown = items.slice(0, ALERT_ITEMS).map((item) => `> - ${item}`);
    const more = items.length - shown.length;
    if (more > 0) shown.push(`> - … and ${more} more, listed below`);
    lines.push('> [!CAUTION]', `> **${ATTENTION_HEADING}**`, '>', ...shown, '');
  }
  if (review.limitExcesses.length > 0) {
    lines.push('> [!WARNING]', '> **`botrules apply` will refuse this plan without `--force`:**', '>');
    for (const excess of review.limitExcesses) lines.push(`> - ${markdownText(excessSentence(excess))}`);
    lines.push('');
  }
  return lines;
}

export function summaryTable(apps: readonly AppPlan[]): string[] {
  // The create and delete columns only when a plan has such steps: otherwise the table is the one it always was.
  const lifecycle = apps.some((app) => app.steps.some((step) => step.kind === 'create' || step.kind === 'delete'));
  const rows = apps.map((app) => {
    const counts = countSteps(app.steps);
    const kept = app.unmanaged.length - counts.pauses - counts.deletes;
    const created = lifecycle ? [counts.creates, counts.deletes] : [];
    return [cell(app.app), app.steps.length, counts.updates, counts.moves, counts.pauses, ...created, positionChanges(app), app.blocked.length, kept].map(String);
  });
  const headers = ['app', lifecycle ? 'requests' : 'PATCH requests', 'to update', 'to move', 'to pause', ...(lifecycle ? ['to create', 'to delete'] : []), 'rules changing position', 'blocked', 'not in the files, kept'];
  return table(headers, rows, headers.map((_, index) => (index === 0 ? 'l' : 'r')));
}

/** The rules the plan creates (POST) and deletes (DELETE), one row each, in the order they run. */
export function lifecycleTable(app: AppPlan, showApp: boolean): string {
  const steps = app.steps.filter((step) => step.kind === 'create' || step.kind === 'delete');
  if (steps.length === 0) return '';
  const rows = steps.map((step) => [
    `**${cell(step.name)}**`,
    step.kind === 'create' ? `new (${htmlCode(step.ruleId)} in the plan)` : htmlCode(step.ruleId),
    cell(whatChanges(step)),
  ]);
  const of = showApp ? ` in app ${markdownText(app.app)}` : '';
  const heading = `#### Rules created and deleted (${plural(steps.length, 'request')}${of})`;
  return `${[heading, '', ...table(['rule', 'ruleId', 'what happens to it'], rows)].join('\n')}\n\n`;
}

const BLOCKED_STEPS_INTRO = 'To add each, follow its steps (docs/behaviour.md, "Adding a rule"):';

/** Blocked rules as a warning, each with the console steps that unblock it. */
export function blockedSection(plan: Plan): Section {
  const blocked = plan.apps.flatMap((app) => app.blocked.map((rule) => ({ app, rule })));
  if (blocked.length === 0) return { kind: 'blocked', text: '' };
  const lines = ['> [!WARNING]', `> ${markdownText(blockedSentence(plan) ?? '')}. ${BLOCKED_STEPS_INTRO}`, '>'];
  for (const { app, rule } of blocked) {
    const where = rule.source ? ` (${markdownText(`${rule.source.file}:${rule.source.line}:${rule.source.col}`)})` : '';
    const prefix = plan.apps.length > 1 ? `${markdownText(app.app)}: ` : '';
    lines.push(`> - ${prefix}**${markdownText(rule.name)}**${where}`);
    for (const step of consoleSteps(rule, MARKDOWN_QUOTING)) lines.push(`>   ${step}`);
  }
  lines.push('>', `> ${CREATE_INSTEAD_ADVICE}`);
  return { kind: 'blocked', text: `${lines.join('\n')}\n\n` };
}

/** The live rules no file declares, each with what happens to it; removed and active ones first. */
export function unmanagedTable(app: AppPlan, showApp: boolean): string {
  if (app.unmanaged.length === 0) return '';
  const of = showApp ? ` of app ${markdownText(app.app)}` : '';
  const rows = unmanagedInOrder(app).map((rule) => [`**${cell(rule.name)}**`, htmlCode(rule.ruleId), cell(unmanagedText(app, rule))]);
  const heading = `#### Not in the rule files (${plural(app.unmanaged.length, 'live rule')}${of})`;
  return `${[heading, '', ...table(['rule', 'ruleId', 'what happens to it'], rows)].join('\n')}\n\n`;
}

/** Every move as one row, "from → to" in console positions, in the order the moves run. */
export function movesTable(app: AppPlan, showApp: boolean): string {
  const moves = app.steps.flatMap((step) => {
    const change = positionChange(step);
    return change === undefined ? [] : [{ step, from: change.before + 1, to: change.after + 1 }];
  });
  if (moves.length === 0) return '';
  const rows = moves.slice(0, MOVE_ROWS).map(({ step, from, to }) => [
    `**${cell(step.name)}**`,
    htmlCode(step.ruleId),
    `${from} → ${to}`,
    fieldChanges(step).map((change) => change.field).join(', '),
  ]);
  const of = showApp ? ` in app ${markdownText(app.app)}` : '';
  // Rules that end elsewhere without a PATCH of their own: the moves shift them.
  const shifted = positionChanges(app) - moves.filter(({ from, to }) => from !== to).length;
  const heading = `#### Moves (${plural(moves.length, 'PATCH', 'PATCHes')} carrying a position${of}; ${plural(shifted, 'other rule shifts', 'other rules shift')} with them)`;
  const lines = [heading, '', ...table(['rule', 'ruleId', 'position', 'also updates'], rows)];
  if (moves.length > MOVE_ROWS) lines.push('', `_… and ${moves.length - MOVE_ROWS} more moves; \`botrules plan --live live.json\` lists them all._`);
  return `${lines.join('\n')}\n\n`;
}
