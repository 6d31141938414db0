// What apply prints while it runs: each step's line on stdout as it completes (so a long apply
// is never silent, and the log of an interrupted one shows what was sent), each correction
// pass's heading, and on a terminal a progress line on stderr for long applies. The progress
// line is cleared before every stdout line and at the end, so the two never share a line.
import { correctionPassLine, outcomeLine } from '../render/apply/index.js';
import type { ApplyProgress } from '../engine/apply.js';
import { safeText } from '../render/sanitise.js';
import type { CommandContext } from './context.js';

/** Applies of fewer PATCH requests finish too soon for a progress line to help. */
const PROGRESS_FROM_STEPS = 10;
const CLEAR_LINE = '\r\u001b[K';

export interface ApplyProgressWriter {
  /** The plan's total PATCH requests and the number of apps, once known. */
  start(total: number, apps: number): void;
  event(event: ApplyProgress): void;
  /** Removes the progress line, if shown. */
  done(): void;
}

export function applyProgressWriter(ctx: CommandContext, target: () => string): ApplyProgressWriter {
  let total = 0;
  let finished = 0;
  let several = false;
  let shown = false;
  const showProgress = () => ctx.io.stderrIsTTY && total >= PROGRESS_FROM_STEPS;
  const clear = () => {
    if (shown) ctx.io.stderr.write(CLEAR_LINE);
    shown = false;
  };
  const line = (text: string, app: string) => {
    clear();
    ctx.io.stdout.write(`${several ? `[${safeText(app)}] ` : ''}${text}\n`);
  };
  return {
    start(patches, apps) {
      total = patches;
      several = apps > 1;
    },
    event(event) {
      if (event.kind === 'pass') {
        if (event.pass > 0) {
          total += event.steps.length;
          line(correctionPassLine(event.pass, target()), event.app);
        }
        return;
      }
      finished += 1;
      line(outcomeLine(event.outcome, ctx.colors), event.app);
      if (showProgress()) {
        ctx.io.stderr.write(`${CLEAR_LINE}Applying: ${finished} of ${total} PATCH requests done`);
        shown = true;
      }
    },
    done: clear,
  };
}
