// Markdown rendered by cmark-gfm, GitHub's own engine (the npm package `cmark-gfm`: Node bindings
// to github/cmark-gfm, compiled by `npm ci`), with the extensions github.com enables for comments
// and job summaries; tests assert the HTML lines a reader would get. It runs in the test's own
// process and comes with `npm ci`, so these tests need no program of the operating system.
import cmark from 'cmark-gfm';

const GITHUB_EXTENSIONS = { table: true, strikethrough: true, autolink: true, tagfilter: true };

/**
 * The HTML github.com makes of `markdown`. `unsafe` keeps raw HTML, as github.com does before its
 * own sanitiser (which allows details, summary, code, b, span); without it cmark-gfm omits it.
 */
export function githubHtml(markdown: string, { unsafe = false } = {}): string {
  return cmark.renderHtmlSync(markdown, { extensions: GITHUB_EXTENSIONS, unsafe });
}

/** githubHtml as lines. */
export function renderGfm(markdown: string, options: { unsafe?: boolean } = {}): string[] {
  return githubHtml(markdown, options).split('\n');
}
