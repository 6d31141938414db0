// The plan for a pull-request comment or $GITHUB_STEP_SUMMARY, read at a glance: first what
// needs a reviewer's judgement (what the plan loosens, rules removed from the files but left
// active, behaviour changes, the change limit apply will enforce) as alerts, then the summary
// and a table per concern (rules not in the files, moves as "from → to"), and each field
// change's diff collapsed. GitHub refuses comments over 65,536 characters, so the sections
// after the alerts and the summary are added while they fit and a note says what was left
// out. Every string from a rule file or the service goes through the sanitiser.
import type { ReviewedPlan } from './review.js';
import { fieldChanges, type AppPlan, type PlanStep } from '../../plan/types.js';
import { codeFence, details, htmlCode, markdownHtml, markdownText } from '../markdown.js';
import { safeText } from '../sanitise.js';
import { NO_CHANGES, POSITIONS_NOTE, behaviourHeading, behaviourLine, hasMoves, snapshotNote, summaryLine, unknownDropLines, whatChanges } from './describe.js';
import { alerts, blockedSection, lifecycleTable, movesTable, summaryTable, unmanagedTable, type Section } from './markdown-sections.js';
import { transitionAlerts, transitionNote } from './markdown-transitions.js';
import { changesTable } from './markdown-changes.js';
import { behaviourDiffMarkdown, COMMENT_CAPS } from '../diff/markdown.js';
import { changeLines, createdLines } from './rule-diff.js';
import { LIFETIMES_HEADING, lifetimeSentences } from './lifetimes.js';
import { noteWords, type PlanNote } from './reasons.js';
import type { RenderOptions, Sink } from '../contract.js';
import { plural } from '../../plural.js';

/** GitHub's limit on a comment body, in characters. */
export const MARKDOWN_LIMIT = 65_536;
/** Kept free for the truncation note and the closing lines. */
const NOTE_RESERVE = 600;
/**
 * Where a reviewer finds everything a comment leaves out: they hold no token, so from a live
 * snapshot (`botrules live` writes one; `plan --live` needs no token and sends no request).
 */
const WHOLE_PLAN = '`botrules plan --live live.json` (a snapshot from `botrules live`; no token needed)';
const FULL_DIFF_HINT = `Run ${WHOLE_PLAN} for every class, with \`--format json\` for the data.`;

export function renderMarkdown(reviewed: ReviewedPlan, out: Sink, _options?: RenderOptions): void {
  out.write(markdownPlan(reviewed));
}

/** The whole document; never longer than MARKDOWN_LIMIT characters. */
function markdownPlan(reviewed: ReviewedPlan): string {
  const { plan, review } = reviewed;
  const head = ['### botrules plan', ''];
  const fromSnapshot = snapshotNote(plan);
  if (fromSnapshot !== undefined) head.push(`_${fromSnapshot}_`, '');
  const showApp = plan.apps.length > 1;
  if (!plan.hasChanges()) {
    const unmanaged = plan.apps.map((app) => unmanagedTable(app, showApp)).filter((table) => table !== '');
    return [...head, NO_CHANGES, '', ...unmanaged, ...lifetimes(reviewed), ...notes(review.notes)].join('\n');
  }
  head.push(...firstScreen(reviewed));

  const doc = new BoundedDocument(head.join('\n'), MARKDOWN_LIMIT - NOTE_RESERVE);
  doc.add(blockedSection(plan));
  for (const app of plan.apps) doc.add({ kind: 'lifecycle', text: lifecycleTable(app, showApp) });
  for (const app of plan.apps) doc.add({ kind: 'unmanaged', text: unmanagedTable(app, showApp) });
  doc.add({ kind: 'behaviour', text: behaviourSection(reviewed) });
  for (const app of plan.apps) doc.add({ kind: 'note', text: transitionNote(app, showApp) });
  for (const app of plan.apps) doc.add({ kind: 'moves', text: movesTable(app, showApp) });
  const withFields = plan.apps.flatMap((app) => app.steps.filter((step) => fieldChanges(step).length > 0 || step.kind === 'create').map((step) => ({ app, step })));
  if (withFields.length > 0) doc.add({ kind: 'heading', text: `#### Field changes (${plural(withFields.length, 'rule')})\n\n` });
  for (const { app, step } of withFields) doc.add({ kind: 'step', text: stepSection(app, step, showApp) });
  if (plan.apps.some((app) => hasMoves(app.steps))) doc.add({ kind: 'note', text: `_${POSITIONS_NOTE}_\n\n` });
  // Every class of requests decided differently: long, so after the edits themselves.
  if (review.behaviourDiff !== undefined && review.behaviourDiff.length > 0) doc.add({ kind: 'behaviourDiff', text: behaviourDiffMarkdown(review.behaviourDiff, COMMENT_CAPS, FULL_DIFF_HINT) });
  for (const note of notes(review.notes)) doc.add({ kind: 'note', text: note });
  // The summary again last, where a long plan ends; the reserve keeps room for it.
  return `${doc.finish(withFields.length)}\n**${summaryLine(plan.summary)}**\n`;
}

/**
 * What a reviewer sees before scrolling, in this order: what needs their attention (alerts),
 * the counts, every rule change as one row, the counts per app, lifetimes. Sections meant for
 * the first screen go in this list; the long ones (classes, diffs) go after it.
 */
function firstScreen(reviewed: ReviewedPlan): string[] {
  const { plan } = reviewed;
  return [
    ...alerts(reviewed),
    ...transitionAlerts(plan),
    `**${summaryLine(plan.summary)}**`,
    '',
    ...changesTable(plan),
    ...summaryTable(plan.apps),
    '',
    ...lifetimes(reviewed),
    '',
  ];
}

/** Rules whose lifetime changes their state soon, or explains a status this plan changes: a list. */
function lifetimes(reviewed: ReviewedPlan): string[] {
  const sentences = lifetimeSentences(reviewed);
  if (sentences.length === 0) return [];
  return [`**${LIFETIMES_HEADING}**`, '', ...sentences.map((sentence) => `- ${markdownText(sentence)}`), '', ''];
}

/** The plan's notes (why removed rules could not be recognised), one paragraph each. */
function notes(planNotes: readonly PlanNote[]): string[] {
  return planNotes.map((note) => `_${markdownText(noteWords(note))}_\n\n`);
}

/** What the plan does to named test traffic (only when the project has tests). */
function behaviourSection({ plan, review }: ReviewedPlan): string {
  const report = review.behaviour;
  if (report === undefined || report.tests === 0) return '';
  const heading = markdownText(behaviourHeading(report));
  if (report.changes.length === 0) return `_${heading}_\n\n`;
  const items = report.changes.map((change) => `- ${markdownText(behaviourLine(change, plan.apps.length > 1))}`);
  return `#### ${heading}\n\n${items.join('\n')}\n\n`;
}

/** One rule's field changes, collapsed: its title says what changes, the diff is inside. */
function stepSection(app: AppPlan, step: PlanStep, showApp: boolean): string {
  const prefix = showApp ? `${markdownHtml(app.app)} · ` : '';
  const title = `${prefix}<b>${markdownHtml(step.name)}</b> ${htmlCode(step.ruleId)}: ${markdownHtml(whatChanges(step))}`;
  // Inside a code fence Markdown adds no structure; control characters still become visible.
  const body = [...changeLines(step), ...createdLines(step)].map(safeText).join('\n');
  const drops = unknownDropLines(step).map((line) => `${markdownHtml(line)}\n\n`).join('');
  const fence = codeFence(body);
  return details(title, `${drops}${fence}diff\n${body}\n${fence}`);
}

/** Appends sections while they fit within `budget`; counts what it had to leave out. */
class BoundedDocument {
  private readonly parts: string[];
  private length: number;
  private readonly left: Record<Section['kind'], number> = { blocked: 0, lifecycle: 0, unmanaged: 0, behaviour: 0, behaviourDiff: 0, moves: 0, heading: 0, step: 0, note: 0 };

  constructor(head: string, private readonly budget: number) {
    this.parts = [head];
    this.length = head.length;
  }

  add(section: Section): void {
    if (section.text === '') return;
    // Once a rule's diff is left out, so is every later one (they are in plan order); any
    // other section too long to fit is left out alone, so what follows still shows.
    if (this.left.step > 0 || this.length + section.text.length > this.budget) {
      this.left[section.kind] += 1;
      return;
    }
    this.parts.push(section.text);
    this.length += section.text.length;
  }

  finish(stepTotal: number): string {
    const missing: string[] = [];
    if (this.left.blocked > 0) missing.push('the blocked rules');
    if (this.left.lifecycle > 0) missing.push('the table of rules created and deleted');
    if (this.left.unmanaged > 0) missing.push('the table of rules not in the files');
    if (this.left.behaviour > 0) missing.push('the behaviour changes of the test requests');
    if (this.left.behaviourDiff > 0) missing.push('the behaviour diff');
    if (this.left.moves > 0) missing.push('the table of moves');
    if (this.left.step > 0) missing.push(`${this.left.step} of ${stepTotal} rule diffs`);
    if (missing.length === 0) return this.parts.join('');
    const note =
      `\n> [!NOTE]\n> This plan is truncated: ${missing.join(', ')} ${missing.length === 1 && this.left.step === 0 ? 'is' : 'are'} not shown, to stay within ` +
      `GitHub's limit of ${MARKDOWN_LIMIT.toLocaleString('en-US')} characters per comment. ` +
      `Run ${WHOLE_PLAN} to see the whole plan.\n`;
    return this.parts.join('') + note;
  }
}
