// The error taxonomy. Every failure the tool reports is one of three kinds, and the
// CLI's single top-level handler decides how to print each:
//  - UserError:   the user can fix it (bad file, bad flag, missing token). Message, exit 1.
//  - RemoteError: the service or the network said no. An actionable sentence, exit 1.
//  - anything else is a bug: a short "this is a bug" line; the stack only with --verbose.

import { plural } from './plural.js';

/** A problem located in a file, printed as `FILE:LINE:COL: message`. */
export interface Problem {
  file: string;
  line: number;
  col: number;
  message: string;
}

export class UserError extends Error {
  override readonly name: string = 'UserError';
  /** Extra lines printed after the message (hints, lists). */
  readonly details: readonly string[];
  constructor(message: string, details: readonly string[] = []) {
    super(message);
    this.details = details;
  }
}

/** One or more located problems in the user's files. */
export class ValidationError extends UserError {
  override readonly name = 'ValidationError';
  readonly problems: readonly Problem[];
  constructor(problems: readonly Problem[]) {
    super(`${plural(problems.length, 'problem')} found`);
    this.problems = problems;
  }
}

export class RemoteError extends Error {
  override readonly name = 'RemoteError';
  /** HTTP status, when the server answered. */
  readonly status: number | undefined;
  /** What the tool was doing, e.g. "listing rules of app default". */
  readonly operation: string;
  constructor(message: string, options: { operation: string; status?: number; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.operation = options.operation;
    this.status = options.status;
  }
}

export function formatProblem(p: Problem): string {
  return `${p.file}:${p.line}:${p.col}: ${p.message}`;
}

/** Sort problems by file, then position, so reports are stable. */
export function sortProblems(problems: readonly Problem[]): Problem[] {
  return [...problems].sort(
    (a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.col - b.col),
  );
}
