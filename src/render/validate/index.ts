// validate's formats by name (`validate --format NAME`, the renderer contract of
// ../contract.ts): text, or SARIF on stdout for code scanning with the lines on stderr.
// Annotations under GitHub Actions are ./github.ts's.
import { formatNames, type OutputRegistry, type Sink } from '../contract.js';
import type { ValidateReport } from './model.js';
import { renderValidateSarif } from './sarif.js';
import { renderValidateLog, renderValidateText, validateSummary } from './text.js';

export type { ValidateReport } from './model.js';
export { validateAnnotations } from './github.js';

export const VALIDATE_OUTPUTS = {
  text: { stdout: renderValidateText, stderr: renderValidateLog },
  sarif: {
    stdout: renderValidateSarif,
    stderr: async (report: ValidateReport, out: Sink) => {
      await renderValidateLog(report, out);
      if (report.errors.length === 0) await out.write(`${validateSummary(report)}\n`);
    },
  },
} as const satisfies OutputRegistry<ValidateReport>;

export const VALIDATE_FORMATS = formatNames(VALIDATE_OUTPUTS);
export type ValidateFormat = keyof typeof VALIDATE_OUTPUTS;
