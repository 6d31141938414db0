// SARIF 2.1.0 (`validate --format sarif`, `test --format sarif`; each report's model is its
// sarif.ts: src/render/validate/sarif.ts, src/render/tests/sarif.ts): the format GitHub code
// scanning reads, so findings show on the pull request's diff (docs/behaviour.md, "SARIF").
// One run, one result per finding, each located by the file's path relative to the working
// directory and a 1-based line and column. Text stays exact data: JSON escaping covers control
// characters, and safeJson writes the characters that still reorder a line as \u escapes.
import { VERSION } from '../../version.js';
import type { Problem } from '../../errors.js';
import type { Sink } from '../contract.js';
import { safeJson } from '../sanitise.js';

const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

/** A kind of finding: its stable id (what a file silences) and what it means. */
export interface SarifRule {
  id: string;
  description: string;
}

export interface SarifFinding extends Problem {
  ruleId: string;
  level: 'error' | 'warning' | 'note';
  /** Other places the finding involves (a policy's deciding rule), each with what it is. */
  related?: readonly Problem[];
}

export interface SarifModel {
  /** Every kind of finding the command can report, found or not (code scanning lists them). */
  rules: readonly SarifRule[];
  results: readonly SarifFinding[];
}

export function renderSarif(model: SarifModel, out: Sink): void {
  out.write(`${safeJson(JSON.stringify(sarifLog(model), null, 2))}\n`);
}

export function sarifLog(model: SarifModel): object {
  const index = new Map(model.rules.map((rule, position) => [rule.id, position]));
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'botrules',
            version: VERSION,
            semanticVersion: VERSION,
            rules: model.rules.map((rule) => ({ id: rule.id, shortDescription: { text: rule.description } })),
          },
        },
        columnKind: 'utf16CodeUnits',
        results: model.results.map((finding) => ({
          ruleId: finding.ruleId,
          ...(index.has(finding.ruleId) ? { ruleIndex: index.get(finding.ruleId) } : {}),
          level: finding.level,
          message: { text: finding.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: fileUri(finding.file) },
                region: { startLine: Math.max(1, finding.line), startColumn: Math.max(1, finding.col) },
              },
            },
          ],
          ...(finding.related === undefined ? {} : {
            relatedLocations: finding.related.map((place, id) => ({
              id,
              physicalLocation: { artifactLocation: { uri: fileUri(place.file) }, region: { startLine: Math.max(1, place.line), startColumn: Math.max(1, place.col) } },
              message: { text: place.message },
            })),
          }),
        })),
      },
    ],
  };
}

/**
 * A path as printed (relative, with "/" separators on every platform) as a relative URI
 * reference, each segment percent-encoded. A backslash is part of a file's name on Linux
 * (`rules/a\..\..\b.yaml` is one file in rules/): it is encoded, never read as a
 * separator, so a finding is never moved onto another file by dot-segment removal.
 */
export function fileUri(file: string): string {
  return file.split('/').map((segment) => encodeURIComponent(segment)).join('/');
}

/** The kinds of finding more than one command reports. */
export const INVALID_FILE: SarifRule = { id: 'invalid-file', description: 'A problem in a file that botrules cannot use as it is (schema, syntax or semantics).' };
export const FILE_WARNING: SarifRule = { id: 'file-warning', description: 'A legal value that is probably a mistake (for example an uncommon HTTP method).' };

/** A located problem, warning or finding as a SARIF result of the given kind and level. */
export function located(where: Problem, ruleId: string, level: SarifFinding['level']): SarifFinding {
  return { ruleId, level, file: where.file, line: where.line, col: where.col, message: where.message };
}
