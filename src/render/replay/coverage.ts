// Sentences about the fields a replayed log carries (docs/replay.md, "Fields the log lacks"):
// lines that carry no request field, fields the changed rules read that the lines lack, values
// no rule can match, and the undecided requests they leave. Untrusted text: callers sanitise.
import type { ReplayCoverage, ReplayReport } from '../../replay/tally.js';
import { REQUEST_FIELDS } from '../../replay/coverage.js';
import { presetForKeys } from '../../replay/presets.js';
import { noun, plural } from '../../plural.js';
import { NO_CHANGE_SENTENCE, shareText } from './describe.js';

/** Whether the report has anything to say about the log's fields. */
export function hasCoverageProblem(coverage: ReplayCoverage | undefined): coverage is ReplayCoverage {
  return coverage !== undefined && (coverage.undecided > 0 || coverage.unusable.length > 0);
}

/** Warnings, most serious first: unmapped lines, fields lacking, values in forms no rule matches. */
export function coverageWarnings(report: ReplayReport): string[] {
  const coverage = report.coverage;
  if (!hasCoverageProblem(coverage)) return [];
  const warnings: string[] = [];
  const { empty } = coverage;
  if (empty.count > 0 && empty.first !== undefined) {
    const keys = empty.keys.length === 0 ? '' : `; its keys: ${empty.keys.join(', ')}`;
    const preset = presetForKeys(empty.keys);
    const hint = preset === undefined
      ? 'Map the log\'s keys onto the request fields in botrules.yaml (replay.fields), or name its format with --log-format (docs/replay.md, "Log formats").'
      : `They look like the ${preset} format: name it with --log-format ${preset} (or start replay.fields from it: replay.fields.preset: ${preset}).`;
    warnings.push(`Not read as requests: ${plural(empty.count, 'line')} carry none of the request fields, so their outcome is unknown ` +
      `(first at ${empty.first.file}:${empty.first.line}${keys}). ${hint}`);
  }
  for (const missing of coverage.missing) {
    warnings.push(`Field ${missing.field} lacking: ${missing.rules.map((name) => JSON.stringify(name)).join(', ')}, touched by the change, ` +
      `${noun(missing.rules.length, 'reads', 'read')} it, and ${plural(missing.undecided, 'request')} (${shareText(share(missing.undecided, report))}) ` +
      `lack it where their outcome depends on it.`);
  }
  for (const unusable of coverage.unusable) {
    warnings.push(`Field ${unusable.field}: ${plural(unusable.count, 'line')} carry it in a form no rule can match ` +
      `(e.g. ${JSON.stringify(unusable.example)} at ${unusable.first.file}:${unusable.first.line}); they count as lacking it.`);
  }
  if (coverage.undecided > 0) {
    warnings.push(`Undecided for lack of fields: ${plural(coverage.undecided, 'request')} (${shareText(coverage.undecidedShare)}) of the evaluated; ` +
      'replay cannot say whether their outcome changes, so this is not an all-clear.');
  }
  return warnings;
}

/** The per-field counts, one line: `path 6, method 6, …` (headers marked when the format records only some). */
export function fieldCountsText(coverage: ReplayCoverage, evaluated: number): string {
  const counts = REQUEST_FIELDS.map((field) => `${field} ${coverage.carried[field]}`);
  const partial = coverage.partialHeaders === undefined ? '' : `; the format records only these headers: ${coverage.partialHeaders.join(', ') || 'none'}`;
  return `Fields carried, of ${plural(evaluated, 'evaluated line')}: ${counts.join(', ')}${partial}.`;
}

function share(count: number, report: ReplayReport): number {
  return report.evaluated === 0 ? 0 : count / report.evaluated;
}

/**
 * The sentence when no request changes outcome: the all-clear only when every request was
 * decided; else how many were decided and how many not, or that nothing was evaluated at all.
 */
export function noChangeSentence(report: ReplayReport): string {
  if (report.evaluated === 0) return 'No request was evaluated: this replay says nothing about the change (it is not an all-clear).';
  const coverage = report.coverage;
  if (coverage === undefined || coverage.undecided === 0) return NO_CHANGE_SENTENCE;
  return `No outcome changes among the ${plural(report.evaluated - coverage.undecided, 'decided request')}; ` +
    `${plural(coverage.undecided, 'request')} undecided for lack of fields (above).`;
}
