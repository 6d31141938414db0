// The one Markdown helper module, shared by the plan, report and diff renderers: untrusted
// text in prose, cells and HTML (through the sanitiser), tables, code fences, capped lists,
// and a size budget that keeps output under GitHub's step-summary limit.
import { markdownHtml, markdownText, safeText } from './sanitise.js';

export { markdownHtml, markdownText } from './sanitise.js';

/** GitHub refuses a job summary above 1 MiB; stay well under it. */
export const STEP_SUMMARY_BUDGET = 1024 * 1024 - 64 * 1024;
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
  return `<code>${markdownHtml(text)}</code>`;
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

/** Counts of a value over records, largest first, ties by name. */
export function countBy<T>(items: readonly T[], valuesOf: (item: T) => readonly string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const item of items) {
    for (const value of valuesOf(item)) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** A Mermaid pie chart, which GitHub renders as a picture. Labels lose their double quotes. */
export function mermaidPie(title: string, slices: readonly [string, number][]): string[] {
  // Quotes and backticks would end the label or the fence; controls become visible escapes.
  const label = (s: string) => safeText(s.replace(/["`]/g, "'"));
  return ['```mermaid', `pie title ${label(title)}`, ...slices.map(([name, n]) => `    "${label(name)}" : ${n}`), '```'];
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
