// Markdown rendered by cmark-gfm, GitHub's own engine, with the extensions GitHub uses for
// comments and job summaries; tests assert the HTML lines a reader would get.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CMARK_GFM = '/usr/bin/cmark-gfm';
export const hasCmark = existsSync(CMARK_GFM);

export function renderGfm(markdown: string): string[] {
  return execFileSync(CMARK_GFM, ['-e', 'table', '-e', 'autolink', '-e', 'tagfilter'], { input: markdown, encoding: 'utf8' }).split('\n');
}
