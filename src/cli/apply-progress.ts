// What apply prints while it runs: each step's line on stdout as it completes (so a long apply
// is never silent, and the log of an interrupted one shows what was sent), each correction
// pass's heading, and on a terminal a progress line on stderr for long applies. The progress
// line is the one of progress-line.ts: erased before every stdout line and drawn again after
// it, cut to the terminal's width, with notices (a retry, the interrupt) printed on their own
// lines above it, and line wrapping never switched off.
import { correctionPassLine, outcomeLine } from '../render/apply/index.js';
import type { ApplyProgress } from '../engine/apply.js';
import { safeText } from '../render/sanitise.js';
import type { CommandContext } from './context.js';
import { progressLine } from './progress-line.js';
import { applyingText } from '../render/progress.js';

/** Applies of fewer requests finish too soon for a progress line to help. */
const PROGRESS_FROM_STEPS = 10;

export interface ApplyProgressWriter {
  /**
   * The plan's total requests and the number of apps, once known; `lifecycle` when some are
   * POSTs or DELETEs (the line then counts "requests", not "PATCH requests").
   */
  start(total: number, apps: number, lifecycle?: boolean): void;
  event(event: ApplyProgress): void;
  /** A line for stderr while the apply runs (a retry): above the progress line, if shown. */
  notice(line: string): void;
  /**
   * The interrupt's line: above the progress line, if shown (which also erases the `^C` the
   * terminal echoed after it); else on a line of its own after the echo.
   */
  interrupted(line: string): void;
  /** Removes the progress line, if shown. */
  done(): void;
}

export function applyProgressWriter(ctx: CommandContext, target: () => string): ApplyProgressWriter {
  let total = 0;
  let finished = 0;
  let several = false;
  let shown = false;
  let lifecycleRequests = false;
  const bar = progressLine(ctx.io.stderr);
  const showProgress = () => ctx.io.stderrIsTTY && total >= PROGRESS_FROM_STEPS;
  const draw = () => {
    if (!showProgress() || finished === 0) return;
    bar.update(applyingText(finished, total, lifecycleRequests));
    shown = true;
  };
  const line = (text: string, app: string) => {
    bar.stop();
    ctx.io.stdout.write(`${several ? `[${safeText(app)}] ` : ''}${text}\n`);
    draw();
  };
  return {
    start(requests, apps, lifecycle = false) {
      total = requests;
      several = apps > 1;
      lifecycleRequests = lifecycle;
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
    },
    notice(text) {
      // A notice quotes what a server sent: visible escapes, as ctx.notice writes it.
      if (shown) bar.notice(safeText(text));
      else ctx.notice(text);
    },
    interrupted(text) {
      if (shown) bar.notice(text);
      else ctx.io.stderr.write(`\n${text}\n`);
    },
    done() {
      bar.stop();
      shown = false;
    },
  };
}
