// The plan for a pull-request comment or $GITHUB_STEP_SUMMARY: a summary table, blocked
// rules as a warning, and each PATCH's diff in a collapsible block. GitHub refuses comments
// over 65,536 characters, so sections are added while they fit and a note says what was
// left out (the table and that note always fit).
import { countSteps, type Plan } from '../../plan/plan.js';
import type { AppPlan, PlanStep } from '../../plan/types.js';
import { BLOCKED_ADVICE, NO_CHANGES, POSITIONS_NOTE, behaviourHeading, behaviourLine, hasMoves, snapshotNote, summaryLine, unknownDropLines, whatChanges } from './describe.js';
import { changeLines } from './rule-diff.js';
import { codeFence, details, htmlCode, markdownHtml, markdownText } from '../markdown.js';
import { safeText } from '../sanitise.js';
import type { PlanRenderOptions, TextSink } from './types.js';

/** GitHub's limit on a comment body, in characters. */
export const MARKDOWN_LIMIT = 65_536;
/** Kept free for the truncation note and the closing lines. */
const NOTE_RESERVE = 600;

export function renderMarkdown(plan: Plan, out: TextSink, _options?: PlanRenderOptions): void {
  out.write(markdownPlan(plan, MARKDOWN_LIMIT));
}

/** The whole document; never longer than `limit` characters. */
export function markdownPlan(plan: Plan, limit: number): string {
  const head = ['### botrules plan', ''];
  const fromSnapshot = snapshotNote(plan);
  if (fromSnapshot !== undefined) head.push(`_${fromSnapshot}_`, '');
  if (!plan.hasChanges()) return [...head, NO_CHANGES, ''].join('\n');
  head.push(`**${summaryLine(plan.summary)}**`, '', ...summaryTable(plan.apps), '', '');

  const doc = new BoundedDocument(head.join('\n'), limit - NOTE_RESERVE);
  const blocked = plan.apps.flatMap((app) => app.blocked.map((rule) => ({ app, rule })));
  if (blocked.length > 0) {
    doc.add(`> [!WARNING]\n> ${markdownText(plan.blockedSentence() ?? '')}. ${BLOCKED_ADVICE}\n>\n`, 'blocked');
    for (const { app, rule } of blocked) doc.add(`> - ${blockedItem(app, rule, plan.apps.length > 1)}\n`, 'blocked');
    doc.add('\n', 'blocked');
  }
  const behaviour = behaviourSection(plan);
  if (behaviour !== undefined) doc.add(behaviour, 'behaviour');
  for (const app of plan.apps) {
    for (const step of app.steps) doc.add(stepSection(app, step, plan.apps.length > 1), 'step');
  }
  if (plan.apps.some((app) => hasMoves(app.steps))) doc.add(`${POSITIONS_NOTE}\n\n`, 'note');
  // The summary again last, where a long plan ends; the reserve keeps room for it.
  return `${doc.finish(blocked.length, plan.summary.patches)}\n**${summaryLine(plan.summary)}**\n`;
}

/** What the plan does to named test traffic, before the PATCHes (only when the project has tests). */
function behaviourSection(plan: Plan): string | undefined {
  const report = plan.behaviour;
  if (report === undefined || report.tests === 0) return undefined;
  const heading = markdownText(behaviourHeading(report));
  if (report.changes.length === 0) return `_${heading}_\n\n`;
  const items = report.changes.map((change) => `- ${markdownText(behaviourLine(change, plan.apps.length > 1))}`);
  return `**${heading}**\n\n${items.join('\n')}\n\n`;
}

function summaryTable(apps: readonly AppPlan[]): string[] {
  const rows = apps.map((app) => {
    const counts = countSteps(app.steps);
    const kept = app.unmanaged.length - counts.pauses;
    const cells = [markdownText(app.app), counts.updates, counts.moves, counts.pauses, app.blocked.length, kept, app.steps.length];
    return `| ${cells.join(' | ')} |`;
  });
  return [
    '| app | to update | to move | to pause | blocked | unmanaged kept | PATCH requests |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
  ];
}

function blockedItem(app: AppPlan, rule: AppPlan['blocked'][number], showApp: boolean): string {
  const where = rule.source ? ` (${markdownText(`${rule.source.file}:${rule.source.line}:${rule.source.col}`)})` : '';
  const prefix = showApp ? `${markdownText(app.app)}: ` : '';
  return `${prefix}**${markdownText(rule.name)}**${where}`;
}

function stepSection(app: AppPlan, step: PlanStep, showApp: boolean): string {
  const prefix = showApp ? `${markdownHtml(app.app)} · ` : '';
  const title = `${prefix}<b>${markdownHtml(step.name)}</b> ${htmlCode(step.ruleId)}: ${markdownHtml(whatChanges(step))}`;
  // Inside a code fence Markdown adds no structure; control characters still become visible.
  const lines = changeLines(step).map(safeText);
  const drops = unknownDropLines(step).map((line) => `${markdownHtml(line)}\n\n`).join('');
  if (lines.length === 0) return `- ${title}\n\n`;
  const body = lines.join('\n');
  const fence = codeFence(body);
  return details(title, `${drops}${fence}diff\n${body}\n${fence}`);
}

type SectionKind = 'blocked' | 'behaviour' | 'step' | 'note';

/** Appends sections while they fit within `budget`; counts what it had to leave out. */
class BoundedDocument {
  private readonly parts: string[];
  private length: number;
  private readonly left = { blocked: 0, behaviour: 0, step: 0, note: 0 };

  constructor(
    head: string,
    private readonly budget: number,
  ) {
    this.parts = [head];
    this.length = head.length;
  }

  add(section: string, kind: SectionKind): void {
    // Once a rule change or blocked rule is left out, so is everything after it; a behaviour
    // section too long to fit is left out alone, so the PATCHes still show.
    const full = this.left.blocked + this.left.step > 0;
    if (full || this.length + section.length > this.budget) {
      this.left[kind] += 1;
      return;
    }
    this.parts.push(section);
    this.length += section.length;
  }

  finish(blockedTotal: number, stepTotal: number): string {
    if (this.left.blocked + this.left.behaviour + this.left.step === 0) return this.parts.join('');
    const missing: string[] = [];
    if (this.left.step > 0) missing.push(`${this.left.step} of ${stepTotal} rule changes`);
    if (this.left.blocked > 0) missing.push(`${this.left.blocked} of ${blockedTotal} blocked rules`);
    if (this.left.behaviour > 0) missing.push('the behaviour changes of the test requests');
    const note =
      `\n> [!NOTE]\n> This plan is truncated: ${missing.join(' and ')} are not shown, to stay within ` +
      `GitHub's limit of ${MARKDOWN_LIMIT.toLocaleString('en-US')} characters per comment. ` +
      'Run `botrules plan` to see the whole plan.\n';
    return this.parts.join('') + note;
  }
}
