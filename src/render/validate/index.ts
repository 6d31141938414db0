// validate's formats by name (`validate --format NAME`, the renderer contract of
// ../contract.ts): text, or SARIF for code scanning or JSON for scripts on stdout, with the
// lines on stderr.
// Annotations under GitHub Actions are ./github.ts's.
import { formatNames, type OutputRegistry, type Sink } from '../contract.js';
import type { ValidateReport } from './model.js';
import { renderValidateJson } from './json.js';
import { renderValidateSarif } from './sarif.js';
import { renderValidateLog, renderValidateText, validateSummary } from './text.js';

export { validateAnnotations } from './github.js';

/** stderr beside a document on stdout: the lines of text, and the summary when valid. */
async function linesBesideDocument(report: ValidateReport, out: Sink): Promise<void> {
  await renderValidateLog(report, out);
  if (report.errors.length === 0) await out.write(`${validateSummary(report)}\n`);
}

export const VALIDATE_OUTPUTS = {
  text: { stdout: renderValidateText, stderr: renderValidateLog },
  sarif: { stdout: renderValidateSarif, stderr: linesBesideDocument },
  json: { stdout: renderValidateJson, stderr: linesBesideDocument },
} as const satisfies OutputRegistry<ValidateReport>;

export const VALIDATE_FORMATS = formatNames(VALIDATE_OUTPUTS);
