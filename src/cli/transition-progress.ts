// The transition check's progress on a terminal (docs/behaviour.md, "Safe transitions"): the
// region search's steps, then the states the order search checked, of an app, on the one progress line of progress-line.ts (stderr, only when it
// is a terminal), once the check has taken a second — a check that ends sooner draws nothing —
// and redrawn when the text changes; erased before the plan is printed.
import type { CommandContext } from './context.js';
import { barText, progressLine } from './progress-line.js';
import { safeText } from '../render/sanitise.js';

/** A check shorter than this draws no progress line. */
const QUIET_MS = 1000;

export interface TransitionProgress {
  update(app: string, done: number, total: number): void;
  stop(): void;
}

export function transitionProgress(ctx: CommandContext): TransitionProgress | undefined {
  if (!ctx.io.stderrIsTTY) return undefined;
  const line = progressLine(ctx.io.stderr);
  const started = Date.now();
  let shown = '';
  return {
    update(app, done, total) {
      if (Date.now() - started < QUIET_MS) return;
      const text = barText(`transitions of ${safeText(app)}`, done, total);
      if (text !== shown) line.update((shown = text));
    },
    stop: () => line.stop(),
  };
}
