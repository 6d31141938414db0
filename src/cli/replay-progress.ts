// The replay's progress on a terminal: the one progress line of progress-line.ts on stderr
// (never when stderr is not a TTY, so logs and CI output stay clean), redrawn at most ten times
// a second from the bytes of the logs read, and erased before the report is printed.
import type { ReplayProgress } from '../engine/replay.js';
import type { CommandContext } from './context.js';
import { barText, progressLine } from './progress-line.js';

const REDRAW_MS = 100;

export interface ReplayProgressLine {
  /** Undefined when stderr is not a terminal: the engine then measures nothing. */
  onProgress?: (progress: ReplayProgress) => void;
  stop(): void;
}

export function replayProgressLine(ctx: CommandContext): ReplayProgressLine {
  if (!ctx.io.stderrIsTTY) return { stop: () => {} };
  const line = progressLine(ctx.io.stderr);
  let drawn = 0;
  return {
    onProgress({ bytesRead, bytesTotal, lines }) {
      const now = Date.now();
      if (now - drawn < REDRAW_MS && bytesRead < bytesTotal) return;
      drawn = now;
      line.update(barText('replay', kib(bytesRead), kib(bytesTotal), ` KiB read, ${lines} lines`));
    },
    stop: () => line.stop(),
  };
}

function kib(bytes: number): number {
  return Math.ceil(bytes / 1024);
}
