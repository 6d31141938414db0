// Markdown made from data, rendered by GitHub's own Markdown engine (cmark-gfm with the
// extensions github.com enables: autolink, table, strikethrough, tagfilter): no link, no
// mathematics. cmark-gfm does not make GitHub's cross-references itself (`#123`, `org/repo#1`,
// commit SHAs, `@mentions`): GitHub adds those afterwards in the HTML's text, skipping `code`,
// `pre` and `a` elements, so for those the test checks that every one sits inside `<code>`.
import fc from 'fast-check';
import { markdownHtml, markdownText } from '../../src/render/sanitise.js';
import { githubHtml } from '../helpers/cmark.js';

const SHA = 'a5c3785ed8d6a35868bc169f07e40e889087fd2e';
const PIECES = ['#123', 'org/repo#1', 'user#2', 'GH-5', SHA, SHA.slice(0, 7), `jlord@${SHA}`, '@user', '@org/team', 'a@b.co', 'https://evil.example/x', 'www.evil.example', 'ftp://x.example', '$x$', '$$', '$', '\\$', '|', '*', '_', '`', ' ', 'x', '(', ')', '[', ']', '<', '&'];
const hostile = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 10 }).map((pieces) => pieces.join(''));

/** GitHub's cross-reference patterns (github.com's documented forms, as html-pipeline's filters write them). */
const GITHUB_REFERENCE = /#\d|\bGH-\d|@[\w-]|\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b/i;

/** github.com keeps raw HTML (through its sanitiser, which allows <code>, <span>, <details>). */
const render = (markdown: string): string => githubHtml(markdown, { unsafe: true });

/** The HTML's text outside `<code>` elements, which GitHub's reference filters would read. */
function textOutsideCode(html: string): string {
  return html.replace(/<code>[\s\S]*?<\/code>/g, ' ').replace(/<span>\$<\/span>/g, ' ').replace(/<[^>]*>/g, ' ');
}

describe('Markdown from data through cmark-gfm', () => {
  test('known attacks: no link, every reference in code, no bare dollar sign', () => {
    const text = `see #123, org/repo#1 and ${SHA} by @org/team (a@b.co) at https://evil.example and www.evil.example: $x^2$ and $$y$$`;
    const html = render(`| name |\n|---|\n| ${markdownText(text)} |\n\n<details><summary>${markdownHtml(text)}</summary>\n\nx\n</details>\n`);
    expect(html).not.toMatch(/<a\b/);
    expect(textOutsideCode(html)).not.toMatch(GITHUB_REFERENCE);
    expect(textOutsideCode(html)).not.toContain('$');
    expect(html).toContain('<td>see <code>#123</code>, <code>org/repo#1</code> and <code>a5c3785ed8d6a35868bc169f07e40e889087fd2e</code> by <code>@org/team</code> (<code>a@b.co</code>) at <code>https://evil.example</code> and <code>www.evil.example:</code> <span>$</span>x^2<span>$</span> and <span>$</span><span>$</span>y<span>$</span><span>$</span></td>');
  });

  test('any mix of references, links, dollar signs and Markdown punctuation, in a table cell and in HTML', () => {
    // One cmark-gfm run for all samples: each sample in its own table and its own <details>.
    const samples = fc.sample(hostile, { numRuns: 300, seed: 21 });
    const markdown = samples.map((text) => `| c |\n|---|\n| ${markdownText(text)} |\n\n<details><summary>${markdownHtml(text)}</summary>\n\nx\n</details>\n`).join('\n');
    const html = render(markdown);
    expect(html).not.toMatch(/<a\b/);
    expect(textOutsideCode(html)).not.toMatch(GITHUB_REFERENCE);
    expect(textOutsideCode(html)).not.toContain('$');
    // Every sample stayed one table with one row (no `|` split a cell) and one <details>.
    expect(html.match(/<table>/g)).toHaveLength(samples.length);
    expect(html.match(/<tr>/g)).toHaveLength(samples.length * 2);
    expect(html.match(/<td>/g)).toHaveLength(samples.length);
  });
});
