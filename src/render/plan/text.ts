// The plan for a terminal: the summary line, then per app each PATCH with a coloured
// unified diff of the rule, blocked rules with what to do, and the unmanaged rules kept.
import type { Plan } from '../../plan/plan.js';
import type { AppPlan, PlanStep } from '../../plan/types.js';
import { NO_CHANGES, POSITIONS_NOTE, hasMoves, summaryLine, whatChanges } from './describe.js';
import { changeLines } from './rule-diff.js';
import type { Colors, PlanRenderOptions, TextSink } from './types.js';

/** Unmanaged rules named in the text before "and N more". */
const NAMED_UNMANAGED = 10;

export function renderText(plan: Plan, out: TextSink, options: PlanRenderOptions): void {
  const c = options.colors;
  if (!plan.hasChanges()) {
    out.write(`${NO_CHANGES}\n`);
    const count = plan.summary.unmanaged;
    if (count === 1) out.write('1 unmanaged live rule is kept as it is.\n');
    if (count > 1) out.write(`${count} unmanaged live rules are kept as they are.\n`);
    return;
  }
  out.write(`${c.bold(summaryLine(plan.summary))}\n`);
  const showAppNames = plan.apps.length > 1;
  for (const app of plan.apps) {
    out.write('\n');
    if (showAppNames) out.write(`${c.bold(`App ${app.app}`)}\n`);
    writeApp(app, out, c);
  }
  if (plan.apps.some((app) => hasMoves(app.steps))) out.write(`\n${c.dim(POSITIONS_NOTE)}\n`);
}

function writeApp(app: AppPlan, out: TextSink, c: Colors): void {
  for (const step of app.steps) writeStep(step, out, c);
  for (const rule of app.blocked) {
    const where = rule.source ? ` (${rule.source.file}:${rule.source.line}:${rule.source.col})` : '';
    out.write(`${c.red('!')} ${c.bold(`"${rule.name}"`)}${where} ${c.red('is blocked')}: ${rule.reason}\n`);
  }
  const kept = keptUnmanaged(app);
  if (kept.length > 0) {
    const named = kept.slice(0, NAMED_UNMANAGED).map((rule) => `"${rule.name}" (${rule.ruleId})`);
    const more = kept.length > named.length ? `, and ${kept.length - named.length} more` : '';
    out.write(`${c.dim(`${unmanagedCount(kept.length)} kept in place, declared in no rule file: ${named.join(', ')}${more}`)}\n`);
  }
}

function writeStep(step: PlanStep, out: TextSink, c: Colors): void {
  out.write(`${c.yellow('~')} ${c.bold(`"${step.name}"`)} ${c.dim(`(${step.ruleId})`)}: ${whatChanges(step)}\n`);
  for (const line of changeLines(step)) out.write(`    ${colourLine(line, c)}\n`);
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

function unmanagedCount(count: number): string {
  return count === 1 ? '1 unmanaged live rule' : `${count} unmanaged live rules`;
}
