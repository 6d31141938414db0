// Markdown rendered by cmark-gfm, GitHub's own engine, with the extensions github.com enables for
// comments and job summaries; tests assert the HTML lines a reader would get. This is the one
// place a fast-tier test runs another program (test/tooling/tiers.test.ts holds it to that).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CMARK_GFM = '/usr/bin/cmark-gfm';
export const hasCmark = existsSync(CMARK_GFM);

const GITHUB_EXTENSIONS = ['-e', 'table', '-e', 'strikethrough', '-e', 'autolink', '-e', 'tagfilter'];

/**
 * The HTML github.com makes of `markdown`. `unsafe` keeps raw HTML, as github.com does before its
 * own sanitiser (which allows details, summary, code, b, span); without it cmark-gfm omits it.
 */
export function githubHtml(markdown: string, { unsafe = false } = {}): string {
  return execFileSync(CMARK_GFM, [...GITHUB_EXTENSIONS, ...(unsafe ? ['--unsafe'] : [])], { input: markdown, encoding: 'utf8' });
}

/** githubHtml as lines. */
export function renderGfm(markdown: string, options: { unsafe?: boolean } = {}): string[] {
  return githubHtml(markdown, options).split('\n');
}
