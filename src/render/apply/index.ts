// apply's report formats (the renderer contract of ../contract.ts): text, for now its one format.
import type { OutputRegistry } from '../contract.js';
import type { ApplyOutput } from './model.js';
import { renderApplyLog, renderApplyText } from './text.js';

export type { ApplyReportView, StepOutcomeView } from './model.js';
export { correctionPassLine, outcomeLine } from './text.js';

export const APPLY_OUTPUTS = {
  text: { stdout: renderApplyText, stderr: renderApplyLog },
} as const satisfies OutputRegistry<ApplyOutput>;
