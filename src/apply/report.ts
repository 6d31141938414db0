// The totals of what an apply did, for its verdict and its report (the report's lines are
// src/render/apply/text.ts's).
import type { AppApplyResult } from './apply-app.js';

export interface ApplyTotals {
  sent: number;
  failed: number;
  notAttempted: number;
}

export function totals(results: readonly AppApplyResult[]): ApplyTotals {
  const all = results.flatMap((r) => r.passes.flat());
  return {
    sent: all.filter((o) => o.state !== 'not-attempted').length,
    failed: all.filter((o) => o.state === 'failed').length,
    notAttempted: all.filter((o) => o.state === 'not-attempted').length,
  };
}
