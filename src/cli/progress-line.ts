// One progress line at the bottom of a terminal that other output composes with: the line is
// redrawn in place (carriage return, erase line), cut to the terminal's width so it never
// wraps, and a notice (a retry) is printed on its own line above it. Line wrapping is never
// switched off and the cursor never moves up, so there is nothing to restore on any exit path,
// Ctrl-C included, and nothing lands at the top of the scrollback. The bars of the replay and
// of the transition check are here too; their texts are src/render/progress.ts's.
import type { Writable } from 'node:stream';
import type { ReplayProgress } from '../engine/replay.js';
import { replayText, transitionsText } from '../render/progress.js';
import { safeText } from '../render/sanitise.js';
import type { CommandContext } from './context.js';

const ERASE_LINE = '\r\u001b[2K';

interface ProgressLine {
  /** Draws `text` as the progress line, replacing the previous one. */
  update(text: string): void;
  /** Prints `line` (already made safe) above the progress line, which is then drawn again. */
  notice(line: string): void;
  /** Erases the progress line; later output starts at the beginning of an empty line. */
  stop(): void;
}

export function progressLine(stream: Writable & { columns?: number }): ProgressLine {
  let current = '';
  const fit = (text: string): string => {
    // One column is kept free: a line that fills the last column wraps on some terminals. A
    // terminal that reports no size (0 columns: a pseudo-terminal nobody sized) counts as 80.
    const columns = stream.columns !== undefined && stream.columns > 0 ? stream.columns : 80;
    const width = Math.max(10, columns - 1);
    return text.length > width ? `${text.slice(0, width - 1)}…` : text;
  };
  return {
    update(text) {
      current = text;
      stream.write(`${ERASE_LINE}${fit(current)}`);
    },
    notice(line) {
      stream.write(`${ERASE_LINE}${line}\n${current === '' ? '' : fit(current)}`);
    },
    stop() {
      if (current !== '') stream.write(ERASE_LINE);
      current = '';
    },
  };
}

/** A progress bar of a piece of work: `update` draws what `text` makes of its arguments. */
interface ProgressBar<Args extends unknown[]> {
  update(...args: Args): void;
  /** Prints a line (a retry) above the bar, with visible escapes. */
  notice(line: string): void;
  stop(): void;
}

/**
 * The progress line on stderr, only when stderr is a terminal (undefined otherwise, so logs and
 * CI output stay clean): redrawn when `text` gives a text other than the one shown; `text` gives
 * undefined to skip a redraw (a throttle).
 */
export function progressBar<Args extends unknown[]>(ctx: Pick<CommandContext, 'io'>, text: (...args: Args) => string | undefined): ProgressBar<Args> | undefined {
  if (!ctx.io.stderrIsTTY) return undefined;
  const line = progressLine(ctx.io.stderr);
  let shown = '';
  return {
    update(...args) {
      const next = text(...args);
      if (next !== undefined && next !== shown) line.update((shown = next));
    },
    notice: (text) => line.notice(safeText(text)),
    stop: () => line.stop(),
  };
}

/** A transition check shorter than this draws no progress line. */
const QUIET_MS = 1000;

/**
 * The transition check's progress (docs/behaviour.md, "Safe transitions"): the region search's
 * steps, then the states the order search checked, of an app, once the check has taken a
 * second (a check that ends sooner draws nothing); erased before the plan is printed.
 */
export function transitionProgress(ctx: CommandContext): ProgressBar<[app: string, done: number, total: number]> | undefined {
  const started = Date.now();
  return progressBar(ctx, (app: string, done: number, total: number) => (Date.now() - started < QUIET_MS ? undefined : transitionsText(app, done, total)));
}

const REDRAW_MS = 100;

interface ReplayProgressLine {
  /** Undefined when stderr is not a terminal: the engine then measures nothing. */
  onProgress?: (progress: ReplayProgress) => void;
  stop(): void;
}

/** The replay's progress: redrawn at most ten times a second from the bytes of the logs read, erased before the report. */
export function replayProgressLine(ctx: CommandContext): ReplayProgressLine {
  let drawn = 0;
  const bar = progressBar(ctx, ({ bytesRead, bytesTotal, lines }: ReplayProgress) => {
    const now = Date.now();
    if (now - drawn < REDRAW_MS && bytesRead < bytesTotal) return undefined;
    drawn = now;
    return replayText(bytesRead, bytesTotal, lines);
  });
  return bar === undefined ? { stop: () => {} } : { onProgress: bar.update, stop: bar.stop };
}
