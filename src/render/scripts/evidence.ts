// `scripts verify` (text, json) and `scripts evidence` (html, json), and the lines both print
// on stderr. Every file name, script and message passes through the sanitiser.
import type { EvidencePack } from '../../scripts/evidence.js';
import { breakSummary, type ChainState } from '../../scripts/verify.js';
import { formatNames, type OutputRegistry } from '../contract.js';
import { safeJson, safeText } from '../sanitise.js';
import { periodText, renderEvidenceHtml } from './evidence-html.js';
import { plural } from '../../plural.js';

/** A series' chains as `scripts verify` found them (src/engine/scripts-evidence.ts). */
export interface VerifyModel {
  dir: string;
  scopes: ChainState[];
  unreadable: { file: string; reason: string }[];
  skipped: string[];
}

export function verifyIsIntact(model: VerifyModel): boolean {
  return model.unreadable.length === 0 && model.scopes.every((s) => s.breaks.length === 0);
}

function renderVerifyText(model: VerifyModel): string {
  const lines: string[] = [];
  for (const scope of model.scopes) {
    const state = scope.breaks.length === 0 ? 'intact' : `broken (${plural(scope.breaks.length, 'break')})`;
    lines.push(`Chain of ${scope.scope}: ${plural(scope.snapshots, 'snapshot')}, ${state}`);
    lines.push(`  ${scope.start}`);
    const first = scope.breaks[0];
    if (first) lines.push(`  first break: ${breakSummary(first)}`);
    for (const b of scope.breaks) lines.push(`  ${b.kind}: ${b.file} (taken ${b.takenAt}): ${b.message}`);
    if (scope.head) lines.push(`  newest: ${scope.head.file} ${scope.head.sha256}`);
    lines.push(`  ${scope.anchor}`);
  }
  for (const u of model.unreadable) lines.push(`unreadable: ${u.file}: ${u.reason}`);
  if (model.skipped.length > 0) lines.push(`${plural(model.skipped.length, 'other JSON file')} (not snapshots) left out`);
  return `${lines.map(safeText).join('\n')}\n`;
}

export const VERIFY_OUTPUTS = {
  text: { stdout: async (model, sink) => { await sink.write(renderVerifyText(model)); } },
  json: { stdout: async (model, sink) => { await sink.write(`${safeJson(JSON.stringify({ formatVersion: 1, intact: verifyIsIntact(model), ...model }, null, 2))}\n`); } },
} as const satisfies OutputRegistry<VerifyModel>;

export const VERIFY_FORMATS = formatNames(VERIFY_OUTPUTS);

export const EVIDENCE_OUTPUTS = {
  html: { stdout: async (pack, sink) => { await sink.write(renderEvidenceHtml(pack)); } },
  json: { stdout: async (pack, sink) => { await sink.write(`${safeJson(JSON.stringify(pack, null, 2))}\n`); } },
} as const satisfies OutputRegistry<EvidencePack>;

export const EVIDENCE_FORMATS = formatNames(EVIDENCE_OUTPUTS);

/** The verdict in a few lines for stderr (the pack itself goes to --out or stdout). */
export function describeVerdict(pack: EvidencePack): string[] {
  const head = `Evidence ${periodText(pack)}: ${pack.verdict.pass ? 'PASS' : 'FAIL'} (${plural(pack.snapshots.length, 'snapshot')}, ${plural(pack.coverage.gaps.length, 'gap')}, ${plural(pack.changes.length, 'change')}, chain ${pack.chain.breaks.length === 0 ? 'intact' : 'broken'})`;
  return [head, ...pack.verdict.reasons.map((r) => `  ${r.message}`)].map(safeText);
}

