// Readers for option values, used as `coerce` functions in the yargs command definitions: each
// turns what the user typed into the value the command uses, or throws a UsageError that names
// the option, the value given and what is accepted. yargs hands the error to the CLI's one
// failure handler (main.ts), so a bad value is exit 1 before the command runs (docs/behaviour.md,
// "Exit codes").
import { parseInstant } from '../semantics/lifetime.js';
import { definedFields } from '../defined.js';

/** A command-line usage error (unknown flag, missing argument, a value out of range). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * A whole number from `min` (to `max`, when given). Declared `type: 'number'`, so yargs has
 * already turned the text into a number; text that is not one arrives as NaN.
 */
export function wholeNumber(flag: string, min: number, max?: number): (value: unknown) => number {
  const accepted = max === undefined ? `a whole number of at least ${min}` : `a whole number from ${min} to ${max}`;
  return (value) => {
    const n = single(value, flag);
    if (typeof n !== 'number' || !Number.isInteger(n) || n < min || (max !== undefined && n > max)) {
      throw new UsageError(`${flag} must be ${accepted}, not ${shown(n)}`);
    }
    return n;
  };
}

/** `--app-id a,b --app-id c` → [a, b, c], each once; an empty list is a usage error. */
export function commaList(flag: string, example: string): (value: unknown) => string[] {
  return (value) => {
    const given = (Array.isArray(value) ? value : [value]).filter((v) => v !== undefined);
    const values = given.flatMap((v) => String(v).split(',')).map((v) => v.trim()).filter((v) => v !== '');
    if (values.length === 0) throw new UsageError(`${flag} needs at least one value, e.g. ${flag} ${example}`);
    return [...new Set(values)];
  };
}

/** The one value of an option given once; an option repeated is a usage error, not its last value. */
function single(value: unknown, flag: string): unknown {
  if (!Array.isArray(value)) return value;
  if (value.length === 1) return value[0];
  throw new UsageError(`${flag} takes one value, not ${value.length} (${value.map(shown).join(', ')})`);
}

/** A value as the user would recognise it; what yargs could not read as a number says so. */
function shown(value: unknown): string {
  if (value === undefined || value === true) return 'nothing (it needs a value)';
  if (typeof value === 'number' && Number.isNaN(value)) return 'something that is not a number';
  return JSON.stringify(value) ?? String(value);
}

/** `--timeout SECONDS`: above 0 and at most an hour. */
export function timeoutSeconds(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const given = single(value, '--timeout');
  const seconds = Number(given);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) {
    throw new UsageError(`--timeout must be a number of seconds above 0 and at most 3600, not ${shown(given)}`);
  }
  return seconds;
}

/**
 * `--now TIME` (validate, plan, apply, test, replay): the moment rule lifetimes are evaluated at,
 * to rehearse one (docs/behaviour.md, "Rules with a lifetime"). An ISO 8601 date-time with an
 * offset, or epoch milliseconds: the same instant on every machine.
 */
function lifetimeMoment(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const given = single(value, '--now');
  const text = String(given).trim();
  if (/^\d{11,}$/.test(text) && Number.isSafeInteger(Number(text))) return Number(text);
  const instant = parseInstant(text);
  if (instant !== undefined) return instant;
  throw new UsageError(`--now takes an ISO 8601 date-time with an offset (2026-12-01T09:00:00Z) or epoch milliseconds, not ${shown(given)}`);
}

/** The `--now` option, as every command that reads rule lifetimes declares it. */
export const NOW_OPTION = {
  type: 'string',
  requiresArg: true,
  coerce: lifetimeMoment,
  describe: 'Evaluate rule lifetimes (activeFrom, expires) at this moment instead of now, to rehearse it: 2026-12-01T09:00:00Z',
} as const;

/** `--fail-under RULES[,LEAVES]` (test --coverage): percentages from 0 to 100. */
export function failUnder(value: unknown): { rules?: number; leaves?: number } {
  const text = String(Array.isArray(value) ? value.at(-1) : value);
  const parts = text.split(',').map((part) => part.trim());
  const numbers = parts.map((part) => (/^\d+(\.\d+)?$/.test(part) ? Number(part) : NaN));
  if (parts.length > 2 || numbers.some((n) => Number.isNaN(n) || n > 100)) {
    throw new UsageError(`--fail-under takes RULES or RULES,LEAVES, percentages from 0 to 100 (e.g. --fail-under 100,80), not ${JSON.stringify(text)}`);
  }
  return { ...(parts[0] === '' ? {} : { rules: numbers[0] }), ...definedFields({ leaves: numbers[1] }) };
}

/** A percentage from 0 to 100 (`--min-score`). */
export function percentage(flag: string): (value: unknown) => number {
  return (value) => {
    const n = Number(Array.isArray(value) ? value.at(-1) : value);
    if (!Number.isFinite(n) || n < 0 || n > 100) throw new UsageError(`${flag} must be a percentage from 0 to 100, not ${JSON.stringify(String(value))}`);
    return n;
  };
}
