// `scripts evidence --format html`: one self-contained page an assessor can read, keep and
// print. No script, no external resource (a Content-Security-Policy says so to the browser),
// charts as inline SVG, print CSS for a clean PDF. The first screen holds what decides the
// assessment: the verdict, the gaps in coverage and the scripts not approved.
import { DAY_MS } from '../../scripts/time.js';
import { describeDuration, intervalName } from '../../scripts/duration.js';
import { describeGap, type EvidencePack, type InventoryEntry } from '../../scripts/evidence.js';
import type { PeriodChange } from '../../scripts/changes.js';
import { breakableUrl, el, html } from '../html.js';
import { calendarChart, riskChart, scriptsOverTimeChart } from './evidence-charts.js';
import { plural } from '../../plural.js';

/** Unapproved scripts listed on the first screen; the inventory below has them all. */
const FIRST_SCREEN_SCRIPTS = 8;

export function renderEvidenceHtml(pack: EvidencePack): string {
  const status = pack.verdict.pass ? 'PASS' : 'FAIL';
  const scope = `${pack.scope.appId.join(', ')} on ${pack.scope.tld.join(', ')}`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${html(`Script evidence ${status}, ${periodText(pack)}`)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    verdictHeader(pack, status, scope),
    attention(pack),
    section('coverage', 'Coverage of the period', coverageBody(pack)),
    section('charts', 'Scripts over time and by risk', `${scriptsOverTimeChart(pack)}${riskChart(pack)}`),
    section('inventory', `Inventory at the end of the period (${pack.inventory.scripts.length})`, inventoryBody(pack)),
    section('changes', `Changes in the period (${pack.changes.length})`, changesBody(pack.changes)),
    section('approvals', 'Who approved what, when', approvalsBody(pack)),
    section('chain', 'Tamper evidence: the chain of snapshots', chainBody(pack)),
    `<footer>${html(`All times are UTC. Generated ${pack.generatedAt} by botrules ${pack.tool.version}. The same content is available as JSON (scripts evidence --format json).`)}</footer>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function verdictHeader(pack: EvidencePack, status: string, scope: string): string {
  const reasons = pack.verdict.reasons.length === 0
    ? '<p>Every interval had a snapshot, the chain is intact and every script is approved.</p>'
    : `<ul>${pack.verdict.reasons.map((r) => el('li', r.message)).join('')}</ul>`;
  return [
    `<header id="verdict" class="verdict ${pack.verdict.pass ? 'pass' : 'fail'}">`,
    `<h1>Verdict: ${status}</h1>`,
    `<p class="scope">${html(`Payment-page scripts (PCI DSS 6.4.3, 11.6.1) of ${scope}, ${periodText(pack)}; ${plural(pack.snapshots.length, 'snapshot')}, one required in every ${intervalName(pack.period.intervalMs)} interval.`)}</p>`,
    reasons,
    ...pack.limitations.map((text) => el('p', `Not covered: ${text}`, 'limits')),
    '</header>',
  ].join('');
}

function attention(pack: EvidencePack): string {
  const gaps = pack.coverage.gaps;
  const gapList = gaps.length === 0
    ? `<p>${html(`None: every ${intervalName(pack.period.intervalMs)} interval of the period holds a snapshot.`)}</p>`
    : `<ul>${gaps.map((g) => el('li', describeGap(g, pack.period.intervalMs))).join('')}</ul>`;
  const unapproved = pack.inventory.scripts.filter((s) => s.status === 'unapproved' || s.status === 'expired');
  const shown = unapproved.slice(0, FIRST_SCREEN_SCRIPTS);
  const rows = shown.map((s) => `<tr>${urlCell(s.label)}${el('td', s.risk?.level, `risk ${riskClass(s)}`)}${el('td', statusText(s))}</tr>`).join('');
  const more = unapproved.length > shown.length ? el('p', `… and ${unapproved.length - shown.length} more in the inventory below.`) : '';
  const table = unapproved.length === 0
    ? '<p>None: every script at the end of the period is approved.</p>'
    : `<table><thead><tr><th>Script</th><th>Risk</th><th>Status</th></tr></thead><tbody>${rows}</tbody></table>${more}`;
  return [
    '<div id="attention" class="attention">',
    `<section id="gaps"><h2>Gaps in coverage (${gaps.length})</h2>${gapList}</section>`,
    `<section id="unapproved"><h2>Unapproved scripts (${unapproved.length})</h2>${table}</section>`,
    '</div>',
  ].join('');
}

function coverageBody(pack: EvidencePack): string {
  const rows = pack.snapshots
    .map((s) => `<tr>${el('td', s.takenAt)}${urlCell(s.file)}${el('td', s.scripts, 'num')}${el('td', s.unapproved ?? 'unknown', 'num')}</tr>`)
    .join('');
  return [
    el('p', `${plural(pack.coverage.checks, 'snapshot')} in the period. Coverage is judged by interval: the period is cut into ${intervalName(pack.period.intervalMs)} intervals from its start, and each must hold a snapshot (red cells hold none; a grey last cell is shorter than the interval and not yet due). The longest stretch between snapshots: ${describeDuration(pack.coverage.longestWithoutCheckMs)}.`),
    calendarChart(pack),
    `<table><thead><tr><th>Taken</th><th>File</th><th class="num">Scripts</th><th class="num">Not approved</th></tr></thead><tbody>${rows}</tbody></table>`,
  ].join('');
}

function inventoryBody(pack: EvidencePack): string {
  const head = '<tr><th>Script</th><th>Vendor</th><th>Risk</th><th>Page types</th><th>Status</th><th>Approval (justification, owner, expiry)</th><th>First and last sighting</th></tr>';
  const rows = pack.inventory.scripts.map((s) => {
    const approval = s.approval ? `${s.approval.entry}: ${s.approval.justification} (owner ${s.approval.owner}${s.approval.expires ? `, expires ${s.approval.expires}` : ''})` : 'no policy entry';
    const seen = `${s.firstSeen ?? s.firstSnapshot.takenAt} to ${s.lastSeen ?? s.lastSnapshot.takenAt}`;
    return `<tr class="${s.status}">${urlCell(s.label)}${el('td', s.vendor)}${el('td', s.risk?.level, `risk ${riskClass(s)}`)}${el('td', s.pageTypes.join(', '))}${el('td', statusText(s))}${el('td', approval)}${el('td', seen)}</tr>`;
  });
  return `${el('p', `Approvals: ${pack.inventory.approvalSource}.`)}<table><thead>${head}</thead><tbody>${rows.join('')}</tbody></table>`;
}

function changesBody(changes: readonly PeriodChange[]): string {
  if (changes.length === 0) return '<p>No script was added, removed, raised in risk or lost its approval in the period.</p>';
  const rows = changes.map((c) => {
    const what = c.kind === 'risk-raised' ? `risk raised ${c.riskBefore ?? '?'} → ${c.risk ?? '?'}` : c.kind.replace('-', ' ');
    const stayed = !c.unapproved ? '' : c.unapproved.resolution === 'open'
      ? `${describeDuration(c.unapproved.durationMs)} from ${c.unapproved.since}, still unapproved at the end`
      : `${describeDuration(c.unapproved.durationMs)} from ${c.unapproved.since}, until ${c.unapproved.resolution} (${c.unapproved.until ?? ''})`;
    return `<tr>${el('td', what)}${urlCell(c.label)}${el('td', c.risk)}${el('td', `${c.snapshot.takenAt} (${c.snapshot.file})`)}${el('td', stayed)}</tr>`;
  });
  return `<table><thead><tr><th>Change</th><th>Script</th><th>Risk</th><th>First shown by</th><th>Unapproved for</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function approvalsBody(pack: EvidencePack): string {
  const a = pack.approvals;
  const rows = a.entries.map((e) => {
    const history = e.history.length === 0 ? 'no commit' : e.history.map((c) => `${c.change} ${c.date} by ${c.author} in ${c.commit.slice(0, 12)} (${c.subject})`).join('; ');
    return `<tr>${urlCell(e.entry)}${el('td', e.justification)}${el('td', e.owner)}${el('td', e.expires ?? 'no expiry')}${el('td', history)}</tr>`;
  });
  const table = rows.length === 0 ? '' : `<table><thead><tr><th>Entry</th><th>Justification</th><th>Owner</th><th>Expires</th><th>Added and changed (commit, author, date)</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
  const unmatched = !a.unmatched ? '' : `${el('p', 'Entries that match no script in the period (a typo, or a URL that changed): they approve nothing.', 'bad-text')}<ul>${a.unmatched.map((w) => el('li', w)).join('')}</ul>`;
  return `${el('p', `${a.git ? 'From git' : 'No git history'}: ${a.note}.`)}${unmatched}${table}`;
}

function chainBody(pack: EvidencePack): string {
  const c = pack.chain;
  const breaks = c.breaks.length === 0
    ? el('p', `Intact: ${plural(c.snapshots, 'snapshot')}; ${c.start}.`, 'ok-text')
    : `${el('p', `Broken: ${plural(c.breaks.length, 'break')}; ${c.start}.`, 'bad-text')}<ul>${c.breaks.map((b) => el('li', `${b.kind}: ${b.file} (taken ${b.takenAt}): ${b.message}`)).join('')}</ul>`;
  const head = c.head ? el('p', `Newest snapshot ${c.head.file}, ${c.head.sha256}: compare with the digest the CI run printed when it wrote it.`) : '';
  const unreadable = pack.unreadable.length === 0 ? '' : `<ul>${pack.unreadable.map((u) => el('li', `${u.file}: ${u.reason}`)).join('')}</ul>`;
  return `${breaks}${head}${el('p', `${c.anchor.charAt(0).toUpperCase()}${c.anchor.slice(1)}.`)}${unreadable}`;
}

/** A script location or file name: wraps only between its parts (breakableUrl). */
function urlCell(text: string | undefined): string {
  return `<td class="url">${breakableUrl(text)}</td>`;
}

function section(id: string, title: string, body: string): string {
  return `<section id="${id}"><h2>${html(title)}</h2>${body}</section>`;
}

function statusText(s: InventoryEntry): string {
  if (s.status === 'expired') return `approval expired${s.approval?.expires ? ` ${s.approval.expires}` : ''}`;
  return s.status === 'unknown' ? 'no approval data' : s.status;
}

function riskClass(s: InventoryEntry): string {
  const level = s.risk?.level?.toLowerCase();
  return level === 'critical' || level === 'high' ? 'high' : level === 'medium' ? 'medium' : 'low';
}

function day(iso: string): string {
  return iso.slice(0, 10);
}

/** `2026-01-05 to 2026-03-31`: a period ending at midnight ends with the day before. */
export function periodText(pack: EvidencePack): string {
  const end = Date.parse(pack.period.to);
  const last = end % DAY_MS === 0 ? new Date(end - DAY_MS).toISOString() : pack.period.to;
  return `${day(pack.period.from)} to ${day(last)}`;
}

const STYLE = `
:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:14px;color:#1b1f24}
body{margin:0 auto;max-width:1240px;padding:12px 20px}
h1{margin:0 0 4px;font-size:26px}h2{font-size:17px;margin:14px 0 6px}
.verdict{padding:10px 16px;border-radius:6px;border:2px solid}
.verdict.fail{background:#fdecea;border-color:#c62828}.verdict.pass{background:#e8f5e9;border-color:#2e7d32}
.verdict ul{margin:4px 0 0;padding-left:20px}.verdict p{margin:2px 0}.verdict p.limits{margin-top:6px;font-size:13px}
.attention{display:grid;grid-template-columns:1fr 2fr;gap:16px}
.attention h2{margin-top:10px}
table{border-collapse:collapse;width:100%;margin:4px 0 8px}
th,td{border:1px solid #d0d7de;padding:3px 6px;text-align:left;vertical-align:top}
th{background:#f3f4f6}td.num,th.num{text-align:right}
td.url{font-family:ui-monospace,Menlo,Consolas,monospace;word-break:normal;overflow-wrap:break-word;font-size:12px}
td.risk.high{color:#b71c1c;font-weight:bold}td.risk.medium{color:#8a5a00}
tr.unapproved td,tr.expired td{background:#fff4f2}
.chart{width:100%;height:auto;margin:6px 0;font-size:12px}
.chart text{fill:#1b1f24}.chart text.small{font-size:11px}
.chart .ok{fill:#43a047}.chart .bad{fill:#e53935}.chart .warn{fill:#fb8c00}.chart .unknown{fill:#90a4ae}
.chart .gap{fill:#ffcdd2}.chart .axis{stroke:#57606a}
.ok-text{color:#2e7d32}.bad-text{color:#b71c1c;font-weight:bold}
footer{margin-top:16px;color:#57606a;font-size:12px}
@media print{
 @page{size:A4 landscape;margin:12mm}
 body{max-width:none;padding:0;font-size:11px}
 *{-webkit-print-color-adjust:exact;print-color-adjust:exact}
 section{break-inside:auto}h2{break-after:avoid}tr,.chart,.verdict{break-inside:avoid}
 thead{display:table-header-group}
}`;
