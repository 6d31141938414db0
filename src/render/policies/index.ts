// The policy checks of a plan, written before the plan itself (docs/behaviour.md, "Policies"):
// in text, one FILE:LINE:COL line per policy that is violated or unchecked; in Markdown (the
// pull-request comment), a caution alert per violation, so "Policy violated: … for example …"
// is the comment's first screen. JSON carries them in the plan document (`policies`).
import { noun, plural } from '../../plural.js';
import type { OutputRegistry, Sink, StreamRenderers } from '../contract.js';
import { markdownText, safeText } from '../sanitise.js';
import { isCoverageNote, isReported, type PolicyFinding } from './model.js';
import { policyLine, policyMessage } from './words.js';

export type { PolicyFinding } from './model.js';
export { failsCommand, isReported } from './model.js';
export { policyAnnotation } from './github.js';

/** Appended to a planned violation: whether the live rules already break the policy. */
function pastOrPresent(finding: PolicyFinding): string {
  if (finding.builtin || finding.live === undefined || finding.verdict === 'holds') return '';
  if (finding.live === 'violated') return ' (the live rules already violate it: not new in this plan)';
  if (finding.live === 'holds') return ' (the live rules hold it: this plan breaks it)';
  return ' (not known for the live rules)';
}

function countsLine(findings: readonly PolicyFinding[]): string {
  const own = findings.filter((finding) => !finding.builtin);
  const of = (verdict: PolicyFinding['verdict']) => own.filter((finding) => finding.verdict === verdict).length;
  // A project without policies of its own hears of the built-in ones alone.
  if (own.length === 0) return `Built-in policies: ${plural(findings.length, 'finding')}`;
  return `Policies: ${plural(own.length, 'check')}, ${of('holds')} hold, ${of('violated')} violated, ${of('unchecked')} unchecked` +
    `${own.length === findings.length ? '' : `; built-in policies: ${plural(findings.length - own.length, 'finding')}`}`;
}

function policiesText(findings: readonly PolicyFinding[]): string {
  if (findings.length === 0) return '';
  const lines = [countsLine(findings), ...findings.filter(isReported).map((finding) => `  ${policyLine(finding, pastOrPresent(finding))}`)];
  return `${lines.map((line) => safeText(line)).join('\n')}\n\n`;
}

async function renderText(findings: readonly PolicyFinding[], sink: Sink): Promise<void> {
  const text = policiesText(findings.filter((finding) => !isCoverageNote(finding)));
  if (text !== '') await sink.write(text);
}

/**
 * What apply writes before the plan (docs/behaviour.md, "Policies and apply"): the verdicts as
 * plan writes them, and how many error-level policies --force overrides. One write, so that it
 * comes before the plan apply writes right after it.
 */
export const POLICIES_BEFORE_APPLY: StreamRenderers<{ findings: readonly PolicyFinding[]; forced: number }> = {
  stdout: ({ findings, forced }, sink) => {
    const overridden = forced === 0
      ? ''
      : `--force: applying although ${noun(forced, 'an error-level policy is', `${forced} error-level policies are`)} not proved to hold for the rules this apply leaves (listed above).\n\n`;
    const text = policiesText(findings.filter((finding) => !isCoverageNote(finding))) + overridden;
    if (text !== '') sink.write(text);
  },
};

/**
 * Alerts and built-in findings the Markdown comment shows at most, so that the plan after them
 * stays within a pull-request comment; the JSON plan lists them all.
 */
export const MARKDOWN_POLICY_CAP = 20;

async function renderMarkdown(all: readonly PolicyFinding[], sink: Sink): Promise<void> {
  const findings = all.filter((finding) => !isCoverageNote(finding));
  const reported = findings.filter(isReported);
  const violated = reported.filter((finding) => !finding.builtin);
  const lines: string[] = [];
  for (const finding of violated.slice(0, MARKDOWN_POLICY_CAP)) {
    const where = `${finding.at.file}:${finding.at.line}`;
    const kind = finding.level === 'error' ? 'CAUTION' : 'WARNING';
    lines.push(`> [!${kind}]`, `> ${markdownText(policyMessage(finding) + pastOrPresent(finding))} (\`${markdownText(where).replace(/`/g, '')}\`)`, '');
  }
  if (violated.length > MARKDOWN_POLICY_CAP) lines.push(`${violated.length - MARKDOWN_POLICY_CAP} more policies are not proved to hold: botrules plan --format json lists them all.`, '');
  const builtin = reported.filter((finding) => finding.builtin);
  if (builtin.length > 0) {
    lines.push(`Built-in policies: ${plural(builtin.length, 'finding')}`, '');
    for (const finding of builtin.slice(0, MARKDOWN_POLICY_CAP)) lines.push(`- ${markdownText(`${finding.at.file}:${finding.at.line}: ${policyMessage(finding)} [${finding.policy}]`)}`);
    if (builtin.length > MARKDOWN_POLICY_CAP) lines.push(`- and ${builtin.length - MARKDOWN_POLICY_CAP} more: botrules plan --format json lists them all`);
    lines.push('');
  }
  if (findings.some((finding) => !finding.builtin)) lines.push(markdownText(countsLine(findings)), '');
  if (lines.length > 0) await sink.write(`${lines.join('\n')}\n`);
}

/** Written before the plan in text and Markdown; JSON has them in the plan document. */
export const POLICIES_BEFORE_PLAN = {
  text: { stdout: renderText },
  markdown: { stdout: renderMarkdown },
} as const satisfies OutputRegistry<readonly PolicyFinding[]>;

/**
 * What the built-in policies could not check, written after the plan in text and Markdown (the
 * pull-request comment), so that the plan and its cautions stay the first screen.
 */
export const POLICY_NOTES_AFTER_PLAN = {
  text: {
    stdout: async (findings, sink) => {
      const notes = findings.filter(isCoverageNote);
      if (notes.length > 0) await sink.write(`\n${notes.map((finding) => safeText(policyLine(finding))).join('\n')}\n`);
    },
  },
  markdown: {
    stdout: async (findings, sink) => {
      const notes = findings.filter(isCoverageNote);
      if (notes.length > 0) await sink.write(`\n${notes.map((finding) => `_${markdownText(`${finding.at.file}:${finding.at.line}: ${policyMessage(finding)} [${finding.policy}]`)}_`).join('\n\n')}\n`);
    },
  },
} as const satisfies OutputRegistry<readonly PolicyFinding[]>;
