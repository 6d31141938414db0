// validate's JSON (`validate --format json`, docs/behaviour.md, "validate --format json"): one
// document on stdout with what the text shows, classified the same way (what fails validate, the
// warnings, the analysis findings) and every policy check with its verdict, holds included, as
// plan's JSON carries them. Rule files are untrusted: exact data, terminal-safe escapes.
import type { Sink } from '../contract.js';
import { safeJson } from '../sanitise.js';
import type { ValidateReport } from './model.js';
import { findingDocument } from '../policies/words.js';

/** Bumped when a field changes meaning or goes away; new fields do not bump it. */
const VALIDATE_JSON_VERSION = 1;

function validateJson(report: ValidateReport): object {
  return {
    formatVersion: VALIDATE_JSON_VERSION,
    valid: report.errors.length === 0,
    strict: report.strict,
    apps: report.apps,
    files: report.files,
    rules: report.rules,
    problems: report.errors.map(({ file, line, col, message }) => ({ file, line, col, message })),
    warnings: report.warnings.map(({ file, line, col, message }) => ({ file, line, col, message })),
    findings: report.findings.map(({ check, severity, file, line, col, message }) => ({ check, severity, file, line, col, message })),
    policies: report.policies.map(findingDocument),
  };
}

export async function renderValidateJson(report: ValidateReport, out: Sink): Promise<void> {
  await out.write(`${safeJson(JSON.stringify(validateJson(report), null, 2))}\n`);
}
