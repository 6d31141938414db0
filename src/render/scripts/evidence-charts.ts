// The evidence report's charts, drawn as inline SVG (no script, no external resource, prints
// as vectors). Every coordinate is a number the code computes; every text goes through html().
import type { BucketState } from '../../scripts/coverage.js';
import { describeSpan } from '../../scripts/duration.js';
import type { EvidencePack } from '../../scripts/evidence.js';
import { RISK_SCALE } from '../../scripts/records.js';
import { coord, html } from '../html.js';
import { plural } from '../../plural.js';

const WIDTH = 1000;

/** Scripts in each snapshot of the period, approved and not, placed in time; gaps shaded. */
export function scriptsOverTimeChart(pack: EvidencePack): string {
  const height = 220;
  const left = 48;
  const right = 12;
  const top = 16;
  const bottom = 40;
  const from = Date.parse(pack.period.from);
  const to = Date.parse(pack.period.to);
  const x = (time: string) => left + ((Date.parse(time) - from) / Math.max(1, to - from)) * (WIDTH - left - right);
  const max = Math.max(1, ...pack.snapshots.map((s) => s.scripts));
  const y = (n: number) => top + (1 - n / max) * (height - top - bottom);
  const parts: string[] = [];
  for (const gap of pack.coverage.gaps) {
    const x1 = Math.max(left, x(gap.from));
    const x2 = Math.min(WIDTH - right, x(gap.to));
    parts.push(`<rect class="gap" x="${coord(x1)}" y="${top}" width="${coord(Math.max(1, x2 - x1))}" height="${height - top - bottom}"/>`);
  }
  const barWidth = Math.max(3, Math.min(24, (WIDTH - left - right) / Math.max(1, pack.snapshots.length) / 2));
  for (const s of pack.snapshots) {
    const cx = x(s.takenAt);
    const unapproved = s.unapproved ?? 0;
    const approved = s.scripts - unapproved;
    parts.push(`<rect class="${s.unapproved === undefined ? 'unknown' : 'ok'}" x="${coord(cx - barWidth / 2)}" y="${coord(y(s.scripts))}" width="${coord(barWidth)}" height="${coord(y(s.scripts - approved) - y(s.scripts))}"/>`);
    if (unapproved > 0) parts.push(`<rect class="bad" x="${coord(cx - barWidth / 2)}" y="${coord(y(unapproved))}" width="${coord(barWidth)}" height="${coord(y(0) - y(unapproved))}"/>`);
  }
  const axis = height - bottom;
  parts.push(`<line class="axis" x1="${left}" y1="${axis}" x2="${WIDTH - right}" y2="${axis}"/>`);
  parts.push(`<text x="${left - 6}" y="${coord(y(max) + 4)}" text-anchor="end">${max}</text>`, `<text x="${left - 6}" y="${axis + 4}" text-anchor="end">0</text>`);
  parts.push(`<text x="${left}" y="${axis + 18}">${html(pack.period.from.slice(0, 10))}</text>`);
  parts.push(`<text x="${WIDTH - right}" y="${axis + 18}" text-anchor="end">${html(pack.period.to.slice(0, 10))}</text>`);
  parts.push(legend([['ok', 'approved'], ['bad', 'not approved'], ['gap', 'gap in coverage']], left, axis + 34));
  return svg('chart-time', 'Scripts in each snapshot over the period', height, parts);
}

/** Scripts at the end of the period by risk level, highest first. */
export function riskChart(pack: EvidencePack): string {
  const counts = new Map<string, number>();
  for (const s of pack.inventory.scripts) {
    const level = s.risk?.level?.toLowerCase() ?? '(none)';
    counts.set(level, (counts.get(level) ?? 0) + 1);
  }
  const known = [...RISK_SCALE].reverse().filter((level) => counts.has(level));
  const others = [...counts.keys()].filter((level) => !(RISK_SCALE as readonly string[]).includes(level)).sort();
  const rows = [...known, ...others];
  const rowHeight = 26;
  const height = Math.max(1, rows.length) * rowHeight + 12;
  const labelWidth = 120;
  const max = Math.max(1, ...counts.values());
  const parts = rows.map((level, i) => {
    const n = counts.get(level) ?? 0;
    const width = (n / max) * (WIDTH - labelWidth - 80);
    const yTop = 6 + i * rowHeight;
    const cls = level === 'critical' || level === 'high' ? 'bad' : level === 'medium' ? 'warn' : 'ok';
    return [
      `<text x="${labelWidth - 8}" y="${yTop + 16}" text-anchor="end">${html(level)}</text>`,
      `<rect class="${cls}" x="${labelWidth}" y="${yTop + 2}" width="${coord(Math.max(1, width))}" height="${rowHeight - 8}"/>`,
      `<text x="${coord(labelWidth + width + 8)}" y="${yTop + 16}">${n}</text>`,
    ].join('');
  });
  if (rows.length === 0) parts.push(`<text x="8" y="20">No scripts at the end of the period.</text>`);
  return svg('chart-risk', 'Scripts at the end of the period by risk level', height, parts);
}

const BUCKET_CLASS: Record<BucketState, string> = { covered: 'ok', missed: 'bad', 'not-due': 'unknown' };

/** One cell per interval of the period, coloured by the state the verdict reads. */
export function calendarChart(pack: EvidencePack): string {
  const buckets = pack.coverage.buckets;
  const cell = Math.min(80, WIDTH / Math.max(1, buckets.length));
  const height = 58;
  const parts = buckets.map((b, i) => {
    const x = i * cell;
    const label = cell >= 40 ? `<text class="small" x="${coord(x + 2)}" y="52">${html(b.from.slice(5, 10))}</text>` : '';
    const title = `${describeSpan(b.from, b.to)}: ${plural(b.snapshots, 'snapshot')}${b.state === 'not-due' ? ' (shorter than the interval, not yet due)' : ''}`;
    return `<rect class="${BUCKET_CLASS[b.state]}" x="${coord(x + 1)}" y="4" width="${coord(Math.max(1, cell - 2))}" height="32"><title>${html(title)}</title></rect>${label}`;
  });
  return svg('chart-calendar', `Snapshots per interval (${pack.period.interval}) over the period`, height, parts);
}

function legend(items: [string, string][], x: number, y: number): string {
  return items
    .map(([cls, label], i) => `<rect class="${cls}" x="${x + i * 170}" y="${y - 10}" width="12" height="12"/><text x="${x + i * 170 + 18}" y="${y}">${html(label)}</text>`)
    .join('');
}

function svg(id: string, title: string, height: number, parts: string[]): string {
  return `<svg id="${id}" class="chart" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="${id}-title" xmlns="http://www.w3.org/2000/svg"><title id="${id}-title">${html(title)}</title>${parts.join('')}</svg>`;
}
