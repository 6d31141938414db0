// Fingerprints of live rules. A saved plan records them so `apply --plan` can refuse a plan
// whose live rules changed since it was computed, and name the rules that changed.
// Hashing is computation, not I/O: the planner stays pure.
import { hash } from 'node:crypto';
import type { LiveRule } from '../semantics/model.js';
import { canonicalJson } from '../semantics/canonical.js';
import { inPriorityOrder } from '../semantics/list-move.js';

export { inPriorityOrder } from '../semantics/list-move.js';

function sha256(text: string): string {
  return `sha256:${hash('sha256', text, 'hex')}`;
}

/** How to get a rule's canonical JSON; the planner passes the JSON it already computed. */
type JsonOf = (rule: LiveRule) => string;

/** `{"ruleId":…,"name":…,…}`: the canonical JSON with the rule's id first. */
function identifiedJson(rule: LiveRule, jsonOf: JsonOf): string {
  return `{"ruleId":${JSON.stringify(rule.ruleId)},${jsonOf(rule).slice(1)}`;
}

/** `sha256:<hex>` over the normalised live rules in priority order: order and fields both count. */
export function fingerprintRules(live: readonly LiveRule[], jsonOf: JsonOf = canonicalJson): string {
  return liveSnapshot(live, jsonOf).fingerprint;
}

/** `sha256:<hex>` of one live rule's canonical form and its priority. */
export function ruleDigest(rule: LiveRule, jsonOf: JsonOf = canonicalJson): string {
  return digestOf(identifiedJson(rule, jsonOf), rule.priority);
}

function digestOf(identified: string, priority: number): string {
  return sha256(`${identified.slice(0, -1)},"priority":${JSON.stringify(priority)}}`);
}

/** The fingerprint and every rule's digest, serialising each rule once. */
export function liveSnapshot(
  live: readonly LiveRule[],
  jsonOf: JsonOf = canonicalJson,
): { fingerprint: string; digests: Record<string, string> } {
  const ordered = inPriorityOrder(live);
  const jsons = ordered.map((rule) => identifiedJson(rule, jsonOf));
  const digests: Record<string, string> = {};
  ordered.forEach((rule, index) => {
    digests[rule.ruleId] = digestOf(jsons[index] as string, rule.priority);
  });
  return { fingerprint: sha256(`[${jsons.join(',')}]`), digests };
}

/** How a refusal names a rule: `"name" (ruleId)`. */
export function label(name: string, ruleId: string): string {
  return `"${name}" (${ruleId})`;
}
