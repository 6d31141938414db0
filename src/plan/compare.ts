// Comparing a saved plan's steps with the steps planned again from the live rules. A saved
// plan is applied only when they are exactly the same (docs/behaviour.md, "Saved plans"),
// so the first difference is what the refusal names: which step, which part of it, what the
// file says and what re-planning gives.
import type { PlanStep } from './types.js';

/** The parts of a step compared, in the order a difference is looked for. */
const PARTS = ['ruleId', 'kind', 'name', 'body', 'changes', 'dropsUnknown'] as const;

/** Quoted values are cut to this many characters in messages. */
const SHOWN_VALUE = 120;

/**
 * The first difference between `saved` (the file's steps, in its order) and `planned` (the
 * steps re-planning gives), as a sentence, or undefined when they are the same.
 */
export function firstStepDifference(saved: readonly PlanStep[], planned: readonly PlanStep[]): string | undefined {
  const count = Math.max(saved.length, planned.length);
  for (let index = 0; index < count; index += 1) {
    const fromFile = saved[index];
    const fresh = planned[index];
    const which = `step ${index + 1}`;
    if (fromFile === undefined) return `${which} is missing from the file: re-planning gives ${summary(fresh as PlanStep)}`;
    if (fresh === undefined) return `${which} (${summary(fromFile)}) is not in the steps re-planning gives`;
    for (const part of PARTS) {
      if (sameJson(fromFile[part], fresh[part])) continue;
      return `${which} (rule ${shown(fromFile.ruleId)}): its ${part} in the file is ${shown(fromFile[part])}, re-planning gives ${shown(fresh[part])}`;
    }
  }
  return undefined;
}

function summary(step: PlanStep): string {
  return `${step.kind} of rule ${shown(step.ruleId)}`;
}

/** JSON text (control characters escaped), cut to a readable length. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= SHOWN_VALUE ? text : `${text.slice(0, SHOWN_VALUE - 1)}…`;
}

/**
 * True when two JSON values are equal, object keys in any order. (Not util.isDeepStrictEqual:
 * a value read from a file and one computed here need not share prototypes.)
 */
export function sameJson(a: unknown, b: unknown): boolean {
  return sortedJson(a) === sortedJson(b);
}

function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : v,
  );
}
