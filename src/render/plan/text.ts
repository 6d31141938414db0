// The plan for a terminal (and what apply shows before it asks, from a saved plan too): the
// summary line, what the plan loosens (as the Markdown comment leads with it), then per app
// the live rules no file declares (each with what happens to it), each PATCH with a coloured
// diff of the fields it changes (before and after), blocked rules with the console steps that
// unblock them, and the summary again last, where a long plan ends.
// Names, ids, file names and values are untrusted: each goes through safeText before colour.
import type { ReviewedPlan } from './review.js';
import type { AppPlan, PlanStep } from '../../plan/types.js';
import { BLOCKED_ADVICE, blockedSentence } from './refusals.js';
import {
  NO_CHANGES,
  POSITIONS_NOTE,
  REMOVED_ACTIVE,
  behaviourHeading,
  behaviourLine,
  consoleSteps,
  hasMoves,
  snapshotNote,
  summaryLine,
  unmanagedInOrder,
  unknownDropLines,
  unmanagedText,
  whatChanges,
} from './describe.js';
import { writeBehaviourDiffText } from '../diff/text.js';
import { changeLines, createdLines } from './rule-diff.js';
import { transitionText } from './transitions.js';
import { looseningWords, noteWords, type PlanNote } from './reasons.js';
import { LIFETIMES_HEADING, lifetimeSentences } from './lifetimes.js';
import { safeText } from '../sanitise.js';
import type { Colors, RenderOptions, Sink } from '../contract.js';
import { plural } from '../../plural.js';

const LOOSENS_HEADING = 'What this plan loosens (review before applying):';

/** Unmanaged rules listed per app before "… and N more". */
const LISTED_UNMANAGED = 50;

export function renderText(reviewed: ReviewedPlan, out: Sink, options: RenderOptions): void {
  const { plan, review } = reviewed;
  const c = options.colors;
  const fromSnapshot = snapshotNote(plan);
  if (fromSnapshot !== undefined) out.write(`${c.dim(fromSnapshot)}\n`);
  const showAppNames = plan.apps.length > 1;
  if (!plan.hasChanges()) {
    out.write(`${NO_CHANGES}\n`);
    for (const app of plan.apps) writeUnmanaged(app, showAppNames, out, c);
    writeLifetimes(reviewed, out, c);
    writeNotes(review.notes, out, c);
    return;
  }
  const summary = c.bold(summaryLine(plan.summary));
  out.write(`${summary}\n`);
  writeRisks(reviewed, out, c);
  writeLifetimes(reviewed, out, c);
  for (const app of plan.apps) {
    out.write('\n');
    if (showAppNames) out.write(`${c.bold(`App ${safeText(app.app)}`)}\n`);
    writeUnmanaged(app, false, out, c);
    writeTransitions(app, out, c);
    writeApp(app, out, c);
  }
  writeBehaviour(reviewed, out, c);
  if (review.behaviourDiff !== undefined && review.behaviourDiff.length > 0) {
    out.write('\n');
    writeBehaviourDiffText(review.behaviourDiff, out, c, 'plan --format json lists them all');
  }
  const blocked = blockedSentence(plan);
  if (blocked !== undefined) out.write(`\n${c.red('!')} ${safeText(blocked)}.\n  ${BLOCKED_ADVICE}\n`);
  if (plan.apps.some((app) => hasMoves(app.steps))) out.write(`\n${c.dim(POSITIONS_NOTE)}\n`);
  writeNotes(review.notes, out, c);
  out.write(`\n${summary}\n`);
}

/** What the plan loosens, right under the summary: weakened actions, paused or overtaken blocking rules. */
function writeRisks(reviewed: ReviewedPlan, out: Sink, c: Colors): void {
  if (reviewed.review.risks.length === 0) return;
  out.write(`\n${c.bold(c.red(LOOSENS_HEADING))}\n`);
  for (const line of riskLines(reviewed, c)) out.write(`${line}\n`);
}

/** One line per rule the plan loosens (apply repeats the first few above its question). */
export function riskLines({ plan, review }: ReviewedPlan, c: Colors): string[] {
  const showApp = plan.apps.length > 1;
  return review.risks.map((risk) => `  ${c.red('!')} ${showApp ? `app ${safeText(risk.app)}: ` : ''}${c.bold(`"${safeText(risk.name)}"`)} ${safeText(looseningWords(risk.loosens))}`);
}

/** Rules whose lifetime changes their state soon, or explains a status this plan changes. */
function writeLifetimes(reviewed: ReviewedPlan, out: Sink, c: Colors): void {
  const sentences = lifetimeSentences(reviewed);
  if (sentences.length === 0) return;
  out.write(`\n${c.bold(LIFETIMES_HEADING)}\n`);
  for (const sentence of sentences) out.write(`  ${c.yellow('-')} ${safeText(sentence)}\n`);
}

/** Said once, after the rules not in the files (why removed rules could not be recognised). */
function writeNotes(notes: readonly PlanNote[], out: Sink, c: Colors): void {
  if (notes.length === 0) return;
  out.write('\n');
  for (const note of notes) out.write(`${c.dim(safeText(noteWords(note)))}\n`);
}

/** The live rules no file declares, each by name with what happens to it; removed ones first. */
function writeUnmanaged(app: AppPlan, showAppName: boolean, out: Sink, c: Colors): void {
  if (app.unmanaged.length === 0) return;
  const rules = unmanagedInOrder(app);
  const where = showAppName ? ` of app ${safeText(app.app)}` : '';
  out.write(`${c.bold(`Not in the rule files (${plural(rules.length, 'live rule')}${where}):`)}\n`);
  for (const rule of rules.slice(0, LISTED_UNMANAGED)) {
    const removedActive = unmanagedText(app, rule).startsWith(REMOVED_ACTIVE);
    const mark = removedActive ? c.red('!') : c.dim('-');
    const text = `"${safeText(rule.name)}" (${safeText(rule.ruleId)}): ${safeText(unmanagedText(app, rule))}`;
    out.write(`  ${mark} ${removedActive ? c.bold(text) : text}\n`);
  }
  const more = rules.length - LISTED_UNMANAGED;
  if (more > 0) out.write(`    ${c.dim(`… and ${more} more (plan --format json lists them all)`)}\n`);
}

/** Test requests whose outcome the plan changes (only when the project has tests). */
function writeBehaviour({ plan, review }: ReviewedPlan, out: Sink, c: Colors): void {
  const report = review.behaviour;
  if (report === undefined || report.tests === 0) return;
  const heading = safeText(behaviourHeading(report));
  out.write(`\n${report.changes.length === 0 ? c.dim(heading) : c.bold(heading)}\n`);
  for (const change of report.changes) out.write(`    ${c.magenta('≠')} ${safeText(behaviourLine(change, plan.apps.length > 1))}\n`);
}

/** What the order does between its PATCH requests, before the steps: a window is a risk. */
function writeTransitions(app: AppPlan, out: Sink, c: Colors): void {
  const text = transitionText(app);
  if (text === undefined) return;
  const headline = safeText(text.headline);
  out.write(text.risky ? `${c.red('!')} ${c.bold(headline)}\n` : `${c.dim(headline)}\n`);
  for (const window of text.windows) {
    out.write(`  ${c.red('!')} ${safeText(window.title)}\n`);
    for (const open of window.classes) {
      out.write(`    - ${safeText(open.requests)}\n`);
      out.write(`      ${safeText(open.outcomes)}\n`);
      out.write(`      ${safeText(open.example)}\n`);
    }
  }
  for (const note of text.notes) out.write(`  ${safeText(note)}\n`);
}

function writeApp(app: AppPlan, out: Sink, c: Colors): void {
  for (const step of app.steps) writeStep(step, out, c);
  if (app.blocked.length > 0) {
    out.write(`${c.red('!')} ${plural(app.blocked.length, 'blocked rule')} (not live, cannot be created by the API):\n`);
    for (const rule of app.blocked) {
      const where = rule.source ? ` ${c.dim(`(${safeText(rule.source.file)}:${rule.source.line}:${rule.source.col})`)}` : '';
      out.write(`    ${c.bold(`"${safeText(rule.name)}"`)}${where}\n`);
      for (const line of consoleSteps(rule)) out.write(`      ${safeText(line)}\n`);
    }
  }
}

function writeStep(step: PlanStep, out: Sink, c: Colors): void {
  const mark = step.kind === 'create' ? c.green('+') : step.kind === 'delete' ? c.red('-') : c.yellow('~');
  // A create step's ruleId is the plan's placeholder, said as such.
  const id = step.kind === 'create' ? `new rule, ${step.ruleId} in the plan` : step.ruleId;
  out.write(`${mark} ${c.bold(`"${safeText(step.name)}"`)} ${c.dim(`(${safeText(id)})`)}: ${safeText(whatChanges(step))}\n`);
  for (const line of [...changeLines(step), ...createdLines(step)]) out.write(`    ${colourLine(safeText(line), c)}\n`);
  for (const line of unknownDropLines(step)) out.write(`    ${c.red(safeText(line))}\n`);
}

function colourLine(line: string, c: Colors): string {
  if (line.startsWith('@@')) return c.cyan(line);
  if (line.startsWith('+')) return c.green(line);
  if (line.startsWith('-')) return c.red(line);
  return line;
}
