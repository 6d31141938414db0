// What `validate` reports (made by src/engine/validate.ts, `validateReport`), the model of
// its formats: what fails it, what it shows as warnings, and everything found.
import type { Problem } from '../../errors.js';
import type { Finding } from '../../validate/checks.js';
import type { PolicyFinding } from '../policies/model.js';

export interface ValidateReport {
  apps: number;
  files: number;
  rules: number;
  strict: boolean;
  /**
   * Every policy for every app, holds included, and the built-in policies' findings; those that
   * fail validate are also among `errors` (docs/behaviour.md, "Policies").
   */
  policies: readonly PolicyFinding[];
  /** What makes validate fail (exit 1), each at its FILE:LINE:COL; empty when the files are valid. */
  errors: readonly Problem[];
  /** File warnings shown as warnings (under --strict they are among the errors instead). */
  warnings: readonly Problem[];
  /** Analysis findings shown as warnings and notes (under --strict, a warning fails instead). */
  findings: readonly Finding[];
  /** Everything found, for formats that list it whole at --strict's levels (SARIF). */
  found: { problems: readonly Problem[]; fileWarnings: readonly Problem[]; findings: readonly Finding[] };
}
