// Comparing a saved plan's steps with the steps planned again from the live rules. A saved
// plan is applied only when they are exactly the same (docs/behaviour.md, "Saved plans"),
// so the first difference is what the refusal names: which step, which part of it, what the
// file says and what re-planning gives, and the JSON Pointer into the file where they first
// differ (a long body is cut in the message; the pointer still finds the one field).
import type { PlanStep } from './types.js';
import { isObject } from '../io/json-depth.js';
import { pointerToken } from '../io/json-pointer.js';

/** The parts of a step compared, in the order a difference is looked for. */
const PARTS = ['ruleId', 'kind', 'name', 'body', 'changes', 'dropsUnknown'] as const;

/** Quoted values are cut to this many characters in messages. */
const SHOWN_VALUE = 120;

/**
 * The first difference between `saved` (the file's steps, in its order) and `planned` (the
 * steps re-planning gives), as a sentence, or undefined when they are the same.
 */
export function firstStepDifference(saved: readonly PlanStep[], planned: readonly PlanStep[], stepsPointer = '/steps'): string | undefined {
  const count = Math.max(saved.length, planned.length);
  for (let index = 0; index < count; index += 1) {
    const fromFile = saved[index];
    const fresh = planned[index];
    const which = `step ${index + 1}`;
    if (fromFile === undefined) return `${which} is missing from the file: re-planning gives ${summary(fresh as PlanStep)}`;
    if (fresh === undefined) return `${which} (${summary(fromFile)}) is not in the steps re-planning gives`;
    for (const part of PARTS) {
      if (sameJson(fromFile[part], fresh[part])) continue;
      const at = firstDifferingPointer(fromFile[part], fresh[part], `${stepsPointer}/${index}/${part}`);
      return `${which} (rule ${shown(fromFile.ruleId)}): its ${part} in the file is ${shown(fromFile[part])}, re-planning gives ${shown(fresh[part])}; they first differ at ${at}`;
    }
  }
  return undefined;
}

/**
 * The JSON Pointer (RFC 6901) of the first place `a` and `b` differ, below `at`: object keys in
 * sorted order, list items by index (a list item only one of them has is where they differ).
 */
export function firstDifferingPointer(a: unknown, b: unknown, at: string): string {
  if (sameJson(a, b)) return at;
  if (Array.isArray(a) && Array.isArray(b)) {
    const index = [...Array(Math.max(a.length, b.length)).keys()].find((i) => i >= a.length || i >= b.length || !sameJson(a[i], b[i])) as number;
    return index < a.length && index < b.length ? firstDifferingPointer(a[index], b[index], `${at}/${index}`) : `${at}/${index}`;
  }
  if (isObject(a) && isObject(b)) {
    const key = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort().find((k) => !sameJson(a[k], b[k])) as string;
    const token = pointerToken(key);
    return key in a && key in b ? firstDifferingPointer(a[key], b[key], `${at}/${token}`) : `${at}/${token}`;
  }
  return at;
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
 * True when two JSON values are equal, object keys in any order, as their JSON texts would be:
 * a property whose value is undefined counts as absent, and an undefined list item as null, so
 * a step planned here (which may hold `undefined` fields) equals the same step read back from
 * its file. That is why it is not dequal, which counts `{ a: undefined }` and `{}` as different,
 * nor util.isDeepStrictEqual (a value read from a file and one computed here need not share
 * prototypes).
 */
export function sameJson(a: unknown, b: unknown): boolean {
  return sortedJson(a) === sortedJson(b);
}

/** JSON with every object's keys sorted: equal text for equal values ("undefined" for undefined). */
export function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : v,
  ) ?? 'undefined';
}
