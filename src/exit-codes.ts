// The exit codes, in one table (docs/behaviour.md, "Exit codes"; the contract's 0 to 3, and
// the interrupts' 128 + the signal's number). Commands return these names, never numbers.
export const EXIT = {
  /** Success; `plan --detailed-exitcode`: no changes. */
  ok: 0,
  /** An error (invalid files, blocked rules, an API or network failure, a refused apply), a failing test, a shortfall. */
  failed: 1,
  /** Found what the command looks for: changes (`plan --detailed-exitcode`, `diff`, `replay`), a broken chain, a failing verdict. */
  found: 2,
  /** `scripts diff --fail-on`: a condition matched. */
  failOnMatched: 3,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT] | (typeof INTERRUPT_EXIT_CODES)[InterruptSignal];

export type InterruptSignal = 'SIGHUP' | 'SIGINT' | 'SIGTERM';

/** The exit code of a command stopped by an interrupt: 128 + the signal's number, as shells report it. */
export const INTERRUPT_EXIT_CODES = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const satisfies Record<InterruptSignal, number>;

/** `EXIT.found` when the command found something, else `EXIT.ok`. */
export function foundOrOk(found: boolean): ExitCode {
  return found ? EXIT.found : EXIT.ok;
}
