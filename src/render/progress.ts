// The progress lines' texts, one family (the terminal line that draws them is
// src/cli/progress-line.ts): a bar with its counts, per long-running piece of work.
import { safeText } from './sanitise.js';

/** `LABEL [#####-----] DONE/TOTAL` and the unit, if any. */
function barText(label: string, done: number, total: number, unit = ''): string {
  const width = 30;
  const filled = total === 0 ? 0 : Math.round((width * Math.min(done, total)) / total);
  return `${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}${unit}`;
}

/** `scripts [#####-----] 12/40 pages`. */
export function pagesText(done: number, total: number): string {
  return barText('scripts', done, total, ' pages');
}

export const behaviourDiffText = (done: number, total: number): string => barText('behaviour diff', done, total, ' rules');

export const transitionsText = (app: string, done: number, total: number): string => barText(`transitions of ${safeText(app)}`, done, total);

export const mutantsText = (done: number, total: number): string => barText('mutants', done, total);

export function replayText(bytesRead: number, bytesTotal: number, lines: number): string {
  return barText('replay', kib(bytesRead), kib(bytesTotal), ` KiB read, ${lines} lines`);
}

export function applyingText(finished: number, total: number, lifecycle: boolean): string {
  return `Applying: ${finished} of ${total} ${lifecycle ? 'requests' : 'PATCH requests'} done`;
}

function kib(bytes: number): number {
  return Math.ceil(bytes / 1024);
}
