// What the inventory commands say on stderr beside the document they write (docs/behaviour.md,
// "Script inventory"): the report's warnings and where it went, the `--fail-on` matches of a
// diff, an evidence pack's verdict. Every name passes through the sanitiser.
import type { EvidencePack } from '../../scripts/evidence.js';
import { noun, plural } from '../../plural.js';
import { writeLines, type Sink, type StreamRenderers } from '../contract.js';
import { safeText } from '../sanitise.js';
import { describeFailOn } from './diff.js';
import { describeVerdict } from './evidence.js';
import type { DiffModel } from './index.js';

interface ReportOutcomeView {
  warnings: readonly string[];
  count: number;
  /** Records the policy did not approve; undefined without a policy. */
  unapproved?: number;
  /** The file written, when the snapshot went to one. */
  file?: string;
  /** How the snapshot links into the chain of `--previous`. */
  chainNote?: string;
  /** The json snapshot's own digest: the head of its chain, to record outside the artifacts. */
  chainHead?: string;
  /** What was asked for, named when nothing was found. */
  appIds: readonly string[];
  tlds: readonly string[];
}

function* reportLines(view: ReportOutcomeView, warn: (text: string) => string): Iterable<string> {
  for (const warning of view.warnings) yield warn(`warning: ${safeText(warning)}`);
  if (view.file !== undefined) {
    const approval = view.unapproved === undefined ? '' : `, ${view.unapproved} not approved`;
    yield `Wrote ${plural(view.count, 'script')} to ${safeText(view.file)}${approval}`;
  }
  if (view.chainNote !== undefined) yield `Chain: ${safeText(view.chainNote)}`;
  if (view.chainHead !== undefined) yield `Chain head: ${view.chainHead} (record it outside the artifacts; scripts verify --anchor checks against it)`;
  // An empty inventory is more often a mistyped id than a quiet site: say what was asked for.
  if (view.count === 0) yield warn(emptyWarning(view.appIds, view.tlds));
}

function emptyWarning(appIds: readonly string[], tlds: readonly string[]): string {
  const named = (one: string, values: readonly string[]) => `${noun(values.length, one)} ${values.map((value) => safeText(value)).join(', ')}`;
  return `warning: no scripts found for ${named('app id', appIds)} and ${named('domain', tlds)} in the period asked for; check --app-id, --tld and --from`;
}

export const REPORT_OUTCOME: StreamRenderers<ReportOutcomeView> = {
  stderr: (view, sink, { colors }) => writeLines(sink, reportLines(view, colors.yellow)),
};

/** The step summary's line about the head digest (Markdown). */
export function chainHeadSummary(chainHead: string, file: string | undefined): string {
  const where = file === undefined ? 'the snapshot written to stdout' : `\`${safeText(file).replace(/`/g, "'")}\``;
  return `Script inventory chain head: \`${chainHead}\` (${where}); \`botrules scripts verify --anchor ${chainHead}\` checks a series against it.\n`;
}

/**
 * Said when Ctrl-C or a cancelled job stops `scripts report`. Written in one synchronous
 * call, because the signal handler that calls it ends the process right after.
 */
export function writeInterrupted({ signal, out }: { signal: string; out?: string }, sink: Sink): void {
  sink.write(`interrupted (${signal}): nothing was written${out === undefined ? '' : ` to ${safeText(out)}`}\n`);
}

/** The `--fail-on` conditions a diff matched, in red. */
export const FAIL_ON_MATCHES: StreamRenderers<DiffModel> = {
  stderr: ({ failOn }, sink, { colors }) => writeLines(sink, describeFailOn(failOn ?? []).map((line) => colors.red(line))),
};

/** Policy entries that matched no script where the policy was applied, in yellow. */
export const POLICY_WARNINGS: StreamRenderers<{ policyWarnings?: readonly string[] }> = {
  stderr: ({ policyWarnings = [] }, sink, { colors }) => writeLines(sink, policyWarnings.map((line) => colors.yellow(`warning: ${safeText(line)}`))),
};

/** The verdict of an evidence pack, green when it passes, and where the pack went. */
export const EVIDENCE_VERDICT: StreamRenderers<{ pack: EvidencePack; out?: string }> = {
  stderr: ({ pack, out }, sink, { colors }) => {
    const paint = pack.verdict.pass ? colors.green : colors.red;
    const lines = describeVerdict(pack).map((line) => paint(line));
    const warnings = (pack.approvals.unmatched ?? []).map((line) => colors.yellow(`warning: ${safeText(line)}`));
    return writeLines(sink, [...lines, ...warnings, ...(out === undefined ? [] : [`Wrote the evidence pack to ${safeText(out)}`])]);
  },
};
