// What apply works on, per app: its client, the live rules listed just now, and the plan to
// run. Either planned afresh from the rule files (src/engine/apply.ts), or read from a saved
// plan and re-planned from the live rules (saved-plan.ts).
import type { RulesApi } from '../api/types.js';
import type { AppConfig } from '../rules/config.js';
import type { AppPlan } from '../plan/types.js';
import type { LiveRule } from '../semantics/model.js';

export interface ApplyWork {
  app: AppConfig;
  api: RulesApi;
  /** The live rules the plan starts from (listed by this run). */
  live: LiveRule[];
  plan: AppPlan;
}
