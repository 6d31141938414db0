// The one Markdown helper module, shared by the plan, report and diff renderers: untrusted
// text in prose, cells and HTML (through the sanitiser), tables, code fences, capped lists,
// and a size budget that keeps output under GitHub's step-summary limit.
import { markdownCodeHtml, markdownText, safeText } from './sanitise.js';

export { markdownHtml, markdownText } from './sanitise.js';

/** GitHub refuses a job summary above 1 MiB; stay well under it. */
const STEP_SUMMARY_BUDGET = 1024 * 1024 - 64 * 1024;
const MAX_CELL = 200;

/**
 * Untrusted text for a table cell, shortened to a readable length first: pipes, emphasis,
 * HTML, links, images and mentions never break the table or add structure.
 */
export function cell(text: string | number | boolean | undefined): string {
  if (text === undefined || text === '') return '';
  let value = String(text);
  if (value.length > MAX_CELL) value = `${value.slice(0, MAX_CELL - 1)}…`;
  return markdownText(value);
}

/** Longer locations are cut (and say so) rather than fill a summary with one script. */
const MAX_CODE = 1000;

/**
 * Untrusted text as a code span: shown exactly, so a script URL can be copied as it is (no
 * character inserted into it), yet nothing in it is read as Markdown, HTML, a link or a
 * mention. The fence is one backtick longer than any run inside; a space pads content that
 * begins or ends with a backtick or a space (CommonMark strips exactly one on each side).
 * Controls and line breaks become visible escapes (the sanitiser). In a table cell a `|`
 * would end the cell even inside code, so it is written `\|`, which GFM turns back into `|`
 * before it reads the span.
 */
export function codeSpan(text: string | undefined, options: { inTable?: boolean } = {}): string {
  if (text === undefined || text === '') return '';
  const cut = text.length > MAX_CODE;
  let content = safeText(cut ? text.slice(0, MAX_CODE) : text);
  if (options.inTable) content = content.replace(/\|/g, '\\|');
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(content) ? ' ' : '';
  return `${fence}${pad}${content}${pad}${fence}${cut ? ' (cut at 1,000 characters)' : ''}`;
}

/** A bar of block characters, `width` long at most: the same picture in any renderer, or none. */
export function textBar(value: number, max: number, width = 20): string {
  if (value <= 0 || max <= 0) return '';
  return '█'.repeat(Math.max(1, Math.round((value / max) * width)));
}

/** A backtick fence longer than any backtick run in the content. */
export function codeFence(content: string): string {
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/** A collapsible section: the summary is untrusted text, the body already Markdown. */
export function details(summaryHtml: string, body: string): string {
  return `<details><summary>${summaryHtml}</summary>\n\n${body}\n\n</details>\n\n`;
}

/** Untrusted text inside `<code>` in HTML. */
export function htmlCode(text: string): string {
  return `<code>${markdownCodeHtml(text)}</code>`;
}

export function table(headers: readonly string[], rows: readonly (readonly string[])[], align?: readonly ('l' | 'r')[]): string[] {
  const rule = headers.map((_, i) => (align?.[i] === 'r' ? '---:' : '---'));
  return [`| ${headers.join(' | ')} |`, `| ${rule.join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
}

/** The first `limit` items, and a note saying how many were left out and where to find them. */
export function capped<T>(items: readonly T[], limit: number, where: string): { shown: readonly T[]; note?: string } {
  if (items.length <= limit) return { shown: items };
  return { shown: items.slice(0, limit), note: `_… and ${items.length - limit} more, not shown here; ${where}._` };
}

/** A table of the first `limit` items, then the note on what it leaves out, then a blank line. */
export function cappedTable<T>(items: readonly T[], limit: number, where: string, headers: readonly string[], row: (item: T) => string[], align?: readonly ('l' | 'r')[]): string[] {
  const { shown, note } = capped(items, limit, where);
  return [...table(headers, shown.map(row), align), ...(note ? ['', note] : []), ''];
}

/** Counts of a value over records, largest first, ties by name. */
export function countBy<T>(items: readonly T[], valuesOf: (item: T) => readonly string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const item of items) {
    for (const value of valuesOf(item)) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/**
 * Renders with list caps that halve until the text fits the budget: a huge inventory still
 * gives a summary GitHub accepts, with notes saying what was left out.
 */
export function withinBudget(render: (maxRows: number) => string, firstCap = 500, budget = STEP_SUMMARY_BUDGET): string {
  let maxRows = firstCap;
  let text = render(maxRows);
  while (Buffer.byteLength(text, 'utf8') > budget && maxRows > 1) {
    maxRows = Math.floor(maxRows / 2);
    text = render(maxRows);
  }
  return text;
}
