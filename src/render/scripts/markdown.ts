// Markdown building blocks shared by the report and diff renderers: escaped table cells,
// capped lists, and a size budget that keeps output under GitHub's step-summary limit.

/** GitHub refuses a job summary above 1 MiB; stay well under it. */
export const STEP_SUMMARY_BUDGET = 1024 * 1024 - 64 * 1024;
const MAX_CELL = 200;

/** Escapes text for a table cell: pipes, Markdown emphasis and HTML never break the table. */
export function cell(text: string | number | boolean | undefined): string {
  if (text === undefined || text === '') return '';
  let value = String(text).replace(/[\r\n]+/g, ' ');
  if (value.length > MAX_CELL) value = `${value.slice(0, MAX_CELL - 1)}…`;
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|#~])/g, '\\$1');
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
  const label = (s: string) => s.replace(/["\r\n]/g, "'");
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
