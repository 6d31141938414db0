// The plan for a terminal: the summary line, then per app each PATCH with a coloured diff
// of the fields it changes (before and after), blocked rules one per line with what to do,
// the unmanaged rules kept one per line, and the summary again last, where a long plan ends.
// Names, ids, file names and values are untrusted: each goes through safeText before colour.
import type { Plan } from '../../plan/plan.js';
import type { AppPlan, PlanStep } from '../../plan/types.js';
import { BLOCKED_ADVICE, NO_CHANGES, POSITIONS_NOTE, behaviourHeading, behaviourLine, counted, hasMoves, snapshotNote, summaryLine, unknownDropLines, whatChanges } from './describe.js';
import { changeLines } from './rule-diff.js';
import { safeText } from '../sanitise.js';
import type { Colors, PlanRenderOptions, TextSink } from './types.js';

/** Unmanaged rules listed per app before "… and N more". */
const LISTED_UNMANAGED = 50;

export function renderText(plan: Plan, out: TextSink, options: PlanRenderOptions): void {
  const c = options.colors;
  const fromSnapshot = snapshotNote(plan);
  if (fromSnapshot !== undefined) out.write(`${c.dim(fromSnapshot)}\n`);
  if (!plan.hasChanges()) {
    out.write(`${NO_CHANGES}\n`);
    const count = plan.summary.unmanaged;
    if (count === 1) out.write('1 unmanaged live rule is kept as it is.\n');
    if (count > 1) out.write(`${count} unmanaged live rules are kept as they are.\n`);
    return;
  }
  const summary = c.bold(summaryLine(plan.summary));
  out.write(`${summary}\n`);
  const showAppNames = plan.apps.length > 1;
  for (const app of plan.apps) {
    out.write('\n');
    if (showAppNames) out.write(`${c.bold(`App ${safeText(app.app)}`)}\n`);
    writeApp(app, out, c);
  }
  writeBehaviour(plan, out, c);
  const blocked = plan.blockedSentence();
  if (blocked !== undefined) out.write(`\n${c.red('!')} ${safeText(blocked)}.\n  ${BLOCKED_ADVICE}\n`);
  if (plan.apps.some((app) => hasMoves(app.steps))) out.write(`\n${c.dim(POSITIONS_NOTE)}\n`);
  out.write(`\n${summary}\n`);
}

/** Test requests whose outcome the plan changes (only when the project has tests). */
function writeBehaviour(plan: Plan, out: TextSink, c: Colors): void {
  const report = plan.behaviour;
  if (report === undefined || report.tests === 0) return;
  const heading = safeText(behaviourHeading(report));
  out.write(`\n${report.changes.length === 0 ? c.dim(heading) : c.bold(heading)}\n`);
  for (const change of report.changes) out.write(`    ${c.magenta('≠')} ${safeText(behaviourLine(change, plan.apps.length > 1))}\n`);
}

function writeApp(app: AppPlan, out: TextSink, c: Colors): void {
  for (const step of app.steps) writeStep(step, out, c);
  if (app.blocked.length > 0) {
    out.write(`${c.red('!')} ${counted(app.blocked.length, 'blocked rule', 'blocked rules')} (not live, cannot be created by the API):\n`);
    for (const rule of app.blocked) {
      const where = rule.source ? ` ${c.dim(`(${safeText(rule.source.file)}:${rule.source.line}:${rule.source.col})`)}` : '';
      out.write(`    ${c.bold(`"${safeText(rule.name)}"`)}${where}\n`);
    }
  }
  const kept = keptUnmanaged(app);
  if (kept.length > 0) {
    out.write(`${c.dim(`${counted(kept.length, 'unmanaged live rule', 'unmanaged live rules')} kept in place, declared in no rule file:`)}\n`);
    for (const rule of kept.slice(0, LISTED_UNMANAGED)) out.write(`    ${c.dim(`"${safeText(rule.name)}" (${safeText(rule.ruleId)})`)}\n`);
    const more = kept.length - LISTED_UNMANAGED;
    if (more > 0) out.write(`    ${c.dim(`… and ${more} more (plan --format json lists them all)`)}\n`);
  }
}

function writeStep(step: PlanStep, out: TextSink, c: Colors): void {
  out.write(`${c.yellow('~')} ${c.bold(`"${safeText(step.name)}"`)} ${c.dim(`(${safeText(step.ruleId)})`)}: ${safeText(whatChanges(step))}\n`);
  for (const line of changeLines(step)) out.write(`    ${colourLine(safeText(line), c)}\n`);
  for (const line of unknownDropLines(step)) out.write(`    ${c.red(safeText(line))}\n`);
}

function colourLine(line: string, c: Colors): string {
  if (line.startsWith('@@')) return c.cyan(line);
  if (line.startsWith('+')) return c.green(line);
  if (line.startsWith('-')) return c.red(line);
  return line;
}

function keptUnmanaged(app: AppPlan): AppPlan['unmanaged'] {
  const paused = new Set(app.steps.map((step) => step.ruleId));
  return app.unmanaged.filter((rule) => !paused.has(rule.ruleId));
}
