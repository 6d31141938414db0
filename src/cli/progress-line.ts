// One progress line at the bottom of a terminal that other output composes with: the line is
// redrawn in place (carriage return, erase line), cut to the terminal's width so it never
// wraps, and a notice (a retry) is printed on its own line above it. Line wrapping is never
// switched off and the cursor never moves up, so there is nothing to restore on any exit path,
// Ctrl-C included, and nothing lands at the top of the scrollback.
import type { Writable } from 'node:stream';
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
export interface ProgressBar<Args extends unknown[]> {
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
