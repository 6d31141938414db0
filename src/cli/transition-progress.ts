// The transition check's progress on a terminal (docs/behaviour.md, "Safe transitions"): the
// region search's steps, then the states the order search checked, of an app, on the one
// progress line of progress-line.ts, once the check has taken a second (a check that ends
// sooner draws nothing); erased before the plan is printed.
import { transitionsText } from '../render/progress.js';
import type { CommandContext } from './context.js';
import { progressBar, type ProgressBar } from './progress-line.js';

/** A check shorter than this draws no progress line. */
const QUIET_MS = 1000;

export function transitionProgress(ctx: CommandContext): ProgressBar<[app: string, done: number, total: number]> | undefined {
  const started = Date.now();
  return progressBar(ctx, (app: string, done: number, total: number) => (Date.now() - started < QUIET_MS ? undefined : transitionsText(app, done, total)));
}
