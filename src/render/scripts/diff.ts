// `scripts diff` renderers: text (terminal), json (machines) and markdown (step summary).
import type { FailOnMatch, ScriptChange, SnapshotDiff, SnapshotSide } from '../../scripts/diff.js';
import type { SnapshotRecord } from '../../scripts/model.js';
import { recordLabel } from '../../scripts/records.js';
import { NO_COLORS, type Colors } from '../contract.js';
import { cappedTable, cell, codeSpan, table, withinBudget } from '../markdown.js';
import { safeJson, safeText } from '../sanitise.js';
import { byRisk, scriptCell } from './report-markdown.js';
import { plural } from '../../plural.js';
import { definedFields } from '../../defined.js';

/** Each line is made safe before it is coloured: labels and vendors come from shop pages. */
export function renderDiffText(diff: SnapshotDiff, colors: Colors = NO_COLORS): string {
  const lines = [
    colors.bold(safeText(`Script inventory diff: appId ${diff.appId.join(', ')}; tld ${diff.tld.join(', ')}`)),
    safeText(`  OLD ${describeSide(diff.old)}`),
    safeText(`  NEW ${describeSide(diff.new)}`),
    '',
  ];
  for (const r of [...diff.added].sort(byRisk)) lines.push(colors.green(safeText(`+ ${recordLabel(r)}  ${[describeRecord(r), describeApproval(r)].filter((p) => p !== '').join('  ')}`)));
  for (const r of diff.removed) lines.push(colors.red(safeText(`- ${recordLabel(r)}  ${describeRecord(r)}`)));
  for (const c of diff.changed) lines.push(colors.yellow(safeText(`~ ${c.label}  ${describeChange(c).join('; ')}`)));
  if (diff.added.length + diff.removed.length + diff.changed.length > 0) lines.push('');
  lines.push(summaryLine(diff));
  return `${lines.join('\n')}\n`;
}

export function renderDiffJson(diff: SnapshotDiff, failOn?: FailOnMatch[]): string {
  const value = {
    formatVersion: 1,
    appId: diff.appId,
    tld: diff.tld,
    old: diff.old,
    new: diff.new,
    summary: { added: diff.added.length, removed: diff.removed.length, changed: diff.changed.length, unchanged: diff.unchanged },
    added: diff.added,
    removed: diff.removed,
    changed: diff.changed.map(({ record, ...change }) => ({ ...change, key: record.key })),
    ...definedFields({ failOn }),
  };
  return `${safeJson(JSON.stringify(value, null, 2))}\n`;
}

export function renderDiffMarkdown(diff: SnapshotDiff): string {
  return withinBudget((maxRows) => markdownSections(diff, maxRows).join('\n') + '\n');
}

function markdownSections(diff: SnapshotDiff, maxRows: number): string[] {
  const where = 'run `botrules scripts diff --format json` for the full list';
  const section = <T>(title: string, items: readonly T[], headers: string[], row: (item: T) => string[]) =>
    (items.length === 0 ? [] : [`## ${title} (${items.length})`, '', ...cappedTable(items, maxRows, where, headers, row)]);
  const recordTable = (title: string, records: readonly SnapshotRecord[]) =>
    section(title, records, ['Script', 'Vendor', 'Type', 'Risk', 'Page types'], (r) => [scriptCell(r), cell(r.vendor), cell(r.type), cell(r.risk?.level), cell(r.page_types?.join(', '))]);
  return [
    `# Script inventory diff: ${cell(diff.appId.join(', '))} on ${cell(diff.tld.join(', '))}`,
    '',
    ...table(['', 'Window', 'Taken', 'Scripts'], [sideRow('Old', diff.old), sideRow('New', diff.new)], ['l', 'l', 'l', 'r']),
    '',
    `**${summaryLine(diff)}**`,
    '',
    // Added scripts are what a reviewer must judge: the riskiest first.
    ...recordTable('Added', [...diff.added].sort(byRisk)),
    ...recordTable('Removed', diff.removed),
    ...section('Changed', diff.changed, ['Script', 'Change'], (c) => [codeSpan(c.label, { inTable: true }), cell(describeChange(c).join('; '))]),
  ];
}

/** `risk low → high (up); vendor A → B; page types +checkout −home; newly on checkout` */
export function describeChange(change: ScriptChange): string[] {
  const parts: string[] = [];
  if (change.risk) parts.push(`risk ${arrow(change.risk)}${change.risk.direction === 'changed' ? '' : ` (${change.risk.direction})`}`);
  if (change.vendor) parts.push(`vendor ${arrow(change.vendor)}`);
  if (change.type) parts.push(`type ${arrow(change.type)}`);
  if (change.pageTypes) {
    const added = change.pageTypes.added.map((p) => `+${p}`);
    const removed = change.pageTypes.removed.map((p) => `-${p}`);
    parts.push(`page types ${[...added, ...removed].join(' ')}`);
  }
  if (change.newlyOnCheckout) parts.push('newly on checkout');
  return parts;
}

/** Lines for stderr when `--fail-on` matched (docs/behaviour.md, "Exit codes": exit 3), at most `limit` scripts each. */
export function describeFailOn(matches: readonly FailOnMatch[], limit = 20): string[] {
  const lines: string[] = [];
  for (const m of matches) {
    lines.push(`fail-on ${m.condition}: ${plural(m.scripts.length, 'script')}`);
    for (const s of m.scripts.slice(0, limit)) lines.push(`  ${safeText(s)}`);
    if (m.scripts.length > limit) lines.push(`  … and ${m.scripts.length - limit} more (--format json lists them all)`);
  }
  return lines;
}

function arrow(change: { from?: string; to?: string }): string {
  return `${change.from ?? '(none)'} → ${change.to ?? '(none)'}`;
}

function describeRecord(r: SnapshotRecord): string {
  const parts = [r.vendor, r.type, r.risk?.level ? `risk ${r.risk.level}` : undefined, r.page_types?.length ? `pages ${r.page_types.join(',')}` : undefined];
  const text = parts.filter((p): p is string => p !== undefined && p !== '').join(', ');
  return text === '' ? '' : `(${text})`;
}

/**
 * An added script's approval, as NEW's marks (or --policy) judged it: `approved by pattern: …`,
 * `NOT approved` (with why, when the mark says); nothing when NEW carries no approval marks.
 */
function describeApproval(r: SnapshotRecord): string {
  if (r.approved === true) return `approved by ${r.approvedBy ?? 'the policy'}`;
  if (r.approved === false) return `NOT approved${r.approvalNote ? `: ${r.approvalNote}` : ''}`;
  return '';
}

function describeSide(side: SnapshotSide): string {
  return `${side.from} → ${side.to}, ${plural(side.count, 'script')}, taken ${side.takenAt}`;
}

function sideRow(name: string, side: SnapshotSide): string[] {
  return [name, cell(`${side.from} → ${side.to}`), cell(side.takenAt), String(side.count)];
}

function summaryLine(diff: SnapshotDiff): string {
  return `${diff.added.length} added${addedApprovals(diff.added)}, ${diff.removed.length} removed, ${diff.changed.length} changed, ${diff.unchanged} unchanged`;
}

/** ` (2 approved, 1 not approved)` after the added count, when NEW's approvals are known. */
function addedApprovals(added: readonly SnapshotRecord[]): string {
  const judged = added.filter((r) => typeof r.approved === 'boolean');
  if (added.length === 0 || judged.length === 0) return '';
  const approved = judged.filter((r) => r.approved === true).length;
  return ` (${approved} approved, ${added.length - approved} not approved)`;
}
