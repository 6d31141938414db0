// The replay's progress on a terminal: the one progress line of progress-line.ts on stderr,
// redrawn at most ten times a second from the bytes of the logs read, and erased before the
// report is printed.
import type { ReplayProgress } from '../engine/replay.js';
import { replayText } from '../render/progress.js';
import type { CommandContext } from './context.js';
import { progressBar } from './progress-line.js';

const REDRAW_MS = 100;

interface ReplayProgressLine {
  /** Undefined when stderr is not a terminal: the engine then measures nothing. */
  onProgress?: (progress: ReplayProgress) => void;
  stop(): void;
}

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
