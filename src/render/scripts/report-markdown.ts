// `scripts report --format markdown`: a human summary ready for $GITHUB_STEP_SUMMARY.
import type { Snapshot, SnapshotRecord } from '../../scripts/model.js';
import { compareForDisplay, isHighRisk, recordLabel, riskRank, RISK_SCALE } from '../../scripts/records.js';
import { capped, cell, countBy, mermaidPie, table, withinBudget } from '../markdown.js';

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
    ...riskSection(records),
    ...countSection('By type', 'Type', countBy(records, (r) => [r.type ?? NONE]), maxRows),
    ...countSection('By vendor', 'Vendor', countBy(records, (r) => [r.vendor ?? NONE]), Math.min(MAX_VENDORS, maxRows)),
    ...countSection('By page type', 'Page type', countBy(records, (r) => (r.page_types?.length ? r.page_types : [NONE])), maxRows),
    ...highRiskSection(records, maxRows),
    ...unapprovedSection(snapshot, maxRows),
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

/** Risk levels in scale order (low → critical), then unknown levels by name, then records without one. */
function riskSection(records: readonly SnapshotRecord[]): string[] {
  const counts = countBy(records, (r) => [r.risk?.level ?? NONE]).sort(([a], [b]) => riskOrder(a) - riskOrder(b) || (a < b ? -1 : 1));
  if (counts.length === 0) return ['## Risk levels', '', 'No scripts in this window.', ''];
  return [
    '## Risk levels',
    '',
    ...mermaidPie('Scripts by risk level', counts),
    '',
    ...table(['Risk level', 'Scripts'], counts.map(([level, n]) => [cell(level), String(n)]), ['l', 'r']),
    '',
  ];
}

function riskOrder(level: string): number {
  if (level === NONE) return RISK_SCALE.length + 1;
  return riskRank(level) ?? RISK_SCALE.length;
}

/** Largest first; records without the field come last whatever their number. */
function countSection(title: string, column: string, counts: [string, number][], maxRows: number): string[] {
  if (counts.length === 0) return [];
  const ordered = [...counts.filter(([name]) => name !== NONE), ...counts.filter(([name]) => name === NONE)];
  const { shown, note } = capped(ordered, maxRows, SEE_SNAPSHOT);
  return [`## ${title}`, '', ...table([column, 'Scripts'], shown.map(([name, n]) => [cell(name), String(n)]), ['l', 'r']), ...(note ? ['', note] : []), ''];
}

function highRiskSection(records: readonly SnapshotRecord[], maxRows: number): string[] {
  const highRisk = records.filter(isHighRisk).sort((a, b) => (riskRank(b.risk?.level) ?? 0) - (riskRank(a.risk?.level) ?? 0) || compareForDisplay(a, b));
  const title = `## High-risk scripts (${highRisk.length})`;
  if (highRisk.length === 0) return [title, '', 'None: no script is rated high or critical.', ''];
  const { shown, note } = capped(highRisk, maxRows, SEE_SNAPSHOT);
  const rows = shown.map((r) => [cell(recordLabel(r)), cell(r.vendor), cell(r.risk?.level), cell(r.risk?.reason), cell(r.page_types?.join(', '))]);
  return [title, '', ...table(['Script', 'Vendor', 'Risk', 'Reason', 'Page types'], rows), ...(note ? ['', note] : []), ''];
}

function unapprovedSection(snapshot: Snapshot, maxRows: number): string[] {
  if (!snapshot.policy) {
    return ['## Approval', '', 'No approval policy was used: add `scripts-policy.yaml` (or pass `--policy FILE`) to mark approved scripts.', ''];
  }
  const unapproved = snapshot.records.filter((r) => r.approved !== true).sort(compareForDisplay);
  const title = `## Unapproved scripts (${unapproved.length})`;
  const intro = `Checked against ${cell(snapshot.policy.file)}.`;
  if (unapproved.length === 0) return [title, '', `${intro} Every script is approved.`, ''];
  const { shown, note } = capped(unapproved, maxRows, SEE_SNAPSHOT);
  const rows = shown.map((r) => [cell(recordLabel(r)), cell(r.vendor), cell(r.risk?.level), cell(r.page_types?.join(', ')), cell(r.approvalNote)]);
  return [title, '', intro, '', ...table(['Script', 'Vendor', 'Risk', 'Page types', 'Note'], rows), ...(note ? ['', note] : []), ''];
}
