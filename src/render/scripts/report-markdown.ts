// `scripts report --format markdown`: a human summary ready for $GITHUB_STEP_SUMMARY. What
// needs a person comes first: the scripts no policy entry approves and the high-risk ones,
// highest risk first. Script locations are code spans, so they copy exactly; the risk chart
// is a table with text bars, which reads the same in any Markdown renderer.
import type { Snapshot, SnapshotRecord } from '../../scripts/model.js';
import { compareForDisplay, isHighRisk, recordLabel, riskRank, RISK_SCALE } from '../../scripts/records.js';
import { cappedTable, cell, codeSpan, countBy, table, textBar, withinBudget } from '../markdown.js';

const NONE = '(none)';
const MAX_VENDORS = 50;
const SEE_SNAPSHOT = 'the `json` snapshot has every record';

export function renderReportMarkdown(snapshot: Snapshot): string {
  return withinBudget((maxRows) => sections(snapshot, maxRows).join('\n') + '\n');
}

function sections(snapshot: Snapshot, maxRows: number): string[] {
  const records = snapshot.records;
  return [
    ...heading(snapshot),
    ...unapprovedSection(snapshot, maxRows),
    ...highRiskSection(records, maxRows),
    ...riskSection(records),
    ...countSection('By type', 'Type', countBy(records, (r) => [r.type ?? NONE]), maxRows),
    ...countSection('By vendor', 'Vendor', countBy(records, (r) => [r.vendor ?? NONE]), Math.min(MAX_VENDORS, maxRows)),
    ...countSection('By page type', 'Page type', countBy(records, (r) => (r.page_types?.length ? r.page_types : [NONE])), maxRows),
  ];
}

function heading(snapshot: Snapshot): string[] {
  const q = snapshot.query;
  const lines = [
    `# Script inventory: ${cell(q.appId.join(', '))} on ${cell(q.tld.join(', '))}`,
    '',
    `**${snapshot.count}** scripts seen from ${cell(q.from)} to ${cell(q.to)} (taken ${cell(snapshot.takenAt)} by botrules ${cell(snapshot.tool.version)}).`,
    '',
  ];
  for (const warning of snapshot.warnings ?? []) lines.push(`> [!WARNING]`, `> ${cell(warning)}`, '');
  return lines;
}

/** Highest risk first (critical, high, medium, low, then unknown levels and none), then by script. */
export function byRisk(a: SnapshotRecord, b: SnapshotRecord): number {
  const rank = (r: SnapshotRecord) => riskRank(r.risk?.level) ?? -1;
  return rank(b) - rank(a) || compareForDisplay(a, b);
}

/** The script location as a code span in a table cell: exact, copyable, inert. */
export function scriptCell(record: SnapshotRecord): string {
  return codeSpan(recordLabel(record), { inTable: true });
}

/** Risk levels in scale order, highest first, then unknown levels by name, then records without one. */
function riskSection(records: readonly SnapshotRecord[]): string[] {
  const counts = countBy(records, (r) => [r.risk?.level ?? NONE]).sort(([a], [b]) => riskOrder(a) - riskOrder(b) || (a < b ? -1 : 1));
  if (counts.length === 0) return ['## Risk levels', '', 'No scripts in this window.', ''];
  const max = Math.max(...counts.map(([, n]) => n));
  const rows = counts.map(([level, n]) => [cell(level), String(n), textBar(n, max)]);
  return ['## Risk levels', '', ...table(['Risk level', 'Scripts', ''], rows, ['l', 'r', 'l']), ''];
}

function riskOrder(level: string): number {
  if (level === NONE) return RISK_SCALE.length + 2;
  const rank = riskRank(level);
  return rank === undefined ? RISK_SCALE.length + 1 : RISK_SCALE.length - rank;
}

/** Largest first; records without the field come last whatever their number. */
function countSection(title: string, column: string, counts: [string, number][], maxRows: number): string[] {
  if (counts.length === 0) return [];
  const ordered = [...counts.filter(([name]) => name !== NONE), ...counts.filter(([name]) => name === NONE)];
  return [`## ${title}`, '', ...cappedTable(ordered, maxRows, SEE_SNAPSHOT, [column, 'Scripts'], ([name, n]) => [cell(name), String(n)], ['l', 'r'])];
}

function highRiskSection(records: readonly SnapshotRecord[], maxRows: number): string[] {
  const highRisk = records.filter(isHighRisk).sort(byRisk);
  const title = `## High-risk scripts (${highRisk.length})`;
  if (highRisk.length === 0) return [title, '', 'None: no script is rated high or critical.', ''];
  const row = (r: SnapshotRecord) => [scriptCell(r), cell(r.vendor), cell(r.risk?.level), cell(r.risk?.reason), cell(r.page_types?.join(', ')), approvalCell(r)];
  return [title, '', ...cappedTable(highRisk, maxRows, SEE_SNAPSHOT, ['Script', 'Vendor', 'Risk', 'Reason', 'Page types', 'Approved'], row)];
}

function approvalCell(record: SnapshotRecord): string {
  return record.approved === undefined ? '' : record.approved ? 'yes' : '**no**';
}

function unapprovedSection(snapshot: Snapshot, maxRows: number): string[] {
  if (!snapshot.policy) {
    return ['## Approval', '', 'No approval policy was used: add `scripts-policy.yaml` (or pass `--policy FILE`) to mark approved scripts.', ''];
  }
  const unapproved = snapshot.records.filter((r) => r.approved !== true).sort(byRisk);
  const title = `## Unapproved scripts (${unapproved.length})`;
  const intro = `Checked against ${cell(snapshot.policy.file)}.`;
  if (unapproved.length === 0) return [title, '', `${intro} Every script is approved.`, ''];
  const row = (r: SnapshotRecord) => [scriptCell(r), cell(r.vendor), cell(r.risk?.level), cell(r.page_types?.join(', ')), cell(r.approvalNote)];
  return [title, '', intro, '', ...cappedTable(unapproved, maxRows, SEE_SNAPSHOT, ['Script', 'Vendor', 'Risk', 'Page types', 'Note'], row)];
}
