// Sentences about production's own decisions (docs/replay.md, "Production's own decisions"):
// the agreement line, then each group of disagreements by rule and direction with examples.
// Untrusted text: callers sanitise.
import type { Disagreement, ProductionAgreement } from '../../replay/tally.js';
import { plural } from '../../plural.js';
import { ruleName, shareText } from './describe.js';

/** `Production's decisions: the live rules agree on 95.0% of the 200 requests compared …`. */
export function agreementLine(production: ProductionAgreement): string {
  const apart = [
    production.byService > 0 ? `${plural(production.byService, 'request')} blocked by the service itself, not a custom rule, kept apart` : undefined,
    production.undecided > 0 ? `${plural(production.undecided, 'request')} undecided here, not compared` : undefined,
    production.simulated > 0 ? `${plural(production.simulated, 'simulated block')} (monitor mode) compared as blocks` : undefined,
  ].filter((part): part is string => part !== undefined);
  const agreement = production.compared === 0
    ? 'no request could be compared with the live rules'
    : `the live rules agree on ${agreementShare(production)} (${production.agreed} of ${production.compared} compared)`;
  return `Production's decisions (${plural(production.recorded, 'request')} recorded one): ${agreement}${apart.length === 0 ? '' : `; ${apart.join('; ')}`}.`;
}

/** The agreement as a percentage; exact 100% only when every compared request agreed. */
function agreementShare(production: ProductionAgreement): string {
  if (production.agreed === production.compared) return '100%';
  return shareText(production.agreement).replace(/^100\.0%$/, '99.9%');
}

export function disagreementTitle(group: Disagreement): string {
  const side = group.direction === 'we-block-production-allowed' ? 'we block or challenge, production allowed' : 'production blocked or challenged, we allow';
  const rule = group.otherRules === true ? 'other rules (past the first 1,000 groups of rule and direction)' : ruleName(group.rule);
  return `${side}: ${plural(group.count, 'request')}, ${rule}`;
}
