// What the transition check found, in words the text and Markdown plans share (docs/behaviour.md,
// "Safe transitions"): one headline per app, each window with the PATCH requests it lies
// between and each class of requests it lets through (what decides it before, during and after,
// and a witness), then what was not checked. Never "no window" when part of it went unchecked. The strings hold rule
// names, values and a witness request from rule files and the service: callers sanitise them.
import type { AppPlan } from '../../plan/types.js';
import type { TransitionCheck, TransitionWindow } from '../../plan/types.js';
import { plural } from '../../plural.js';
import { uncheckedWords, windowOutcomeWords } from './reasons.js';

interface TransitionText {
  /** True when the order opens a window: the headline is a risk. */
  risky: boolean;
  headline: string;
  windows: { title: string; classes: { requests: string; outcomes: string; example: string }[] }[];
  /** Sentences after the windows: the safer order on offer, what was not checked. */
  notes: string[];
}

/** Undefined when the check did not run (fewer than two PATCH requests, or turned off). */
export function transitionText(app: AppPlan): TransitionText | undefined {
  const check = app.transitions;
  if (check === undefined) return undefined;
  const states = app.steps.length - 1;
  const windows = check.windows.map(windowText);
  const notes = [...offer(check), ...check.unchecked.map((part) => `Not checked: ${uncheckedWords(part)}.`)];
  return { risky: windows.length > 0, headline: headline(check, states), windows, notes };
}

function headline(check: TransitionCheck, states: number): string {
  const between = `${plural(states, 'state')} between the PATCH requests`;
  if (check.windows.length > 0) {
    const refused = 'apply refuses it without --force';
    const planner = check.order === 'reordered' && check.plannerWindows !== undefined ? `; the fewest of any order of these requests (the planner's order opens ${check.plannerWindows})` : '';
    return `Transitions: this order opens ${plural(check.windows.length, 'window')} in the ${between}${planner}; ${refused}`;
  }
  const found = check.unchecked.length === 0 ? 'no window' : 'no window in the part checked';
  if (check.order === 'reordered') {
    return `Transitions: ${found}; botrules chose this order because the planner's order opens ${plural(check.plannerWindows ?? 0, 'window')} (${between} checked)`;
  }
  if (check.order === 'split') {
    return `Transitions: ${found}, at the cost of 1 more PATCH (--safe-order sends one update-and-move as two requests); the planner's order opens ${plural(check.plannerWindows ?? 0, 'window')}`;
  }
  return `Transitions: ${found} in the ${between}`;
}

function offer(check: TransitionCheck): string[] {
  if (check.saferOrderCost === undefined) return [];
  const more = plural(check.saferOrderCost, 'more PATCH', 'more PATCHes');
  return [`An order free of windows exists with ${more}: botrules plan --safe-order shows it, botrules apply --safe-order applies it.`];
}

function windowText(window: TransitionWindow): TransitionText['windows'][number] {
  const steps = window.closesAt - window.opensAfter === 1
    ? `Window between PATCH ${window.opensAfter} and PATCH ${window.closesAt}`
    : `Window from PATCH ${window.opensAfter} until PATCH ${window.closesAt}`;
  return {
    title: `${steps}: ${plural(window.classes.length, 'class of requests', 'classes of requests')} let through`,
    classes: window.classes.map((open) => ({
      requests: open.requests,
      outcomes: `before: ${windowOutcomeWords(open.before)}; during: ${windowOutcomeWords(open.during)}; after: ${windowOutcomeWords(open.after)}`,
      example: `for example ${JSON.stringify(open.witness)}`,
    })),
  };
}
