// The one top-level error handler: turns any thrown value into lines on stderr and an exit code.
import pc from 'picocolors';
import { RemoteError, UserError, ValidationError, formatProblem, sortProblems } from '../errors.js';
import { describeWriteError } from '../io/atomic-write.js';
import { safeText } from '../render/sanitise.js';
import { annotationsFor, type Annotations } from './annotations.js';
import { colorEnabled, isBrokenPipe, type CliIo } from './context.js';
import { UsageError } from './options.js';
import { EXIT, type ExitCode } from '../exit-codes.js';

export function reportError(err: unknown, io: CliIo, opts: { verbose: boolean; color: boolean }, annotations: Annotations = annotationsFor(io)): ExitCode {
  // Output cut short by its reader (`| head`) ends quietly, as a successful command would.
  if (isBrokenPipe(err)) return EXIT.ok;
  const c = pc.createColors(colorEnabled(io.stderrIsTTY, io.env, opts.color));
  // Messages quote rule names, file names and server text: each line is made safe before it
  // is coloured, so untrusted text shows its control characters as visible escapes.
  const write = (line: string, paint: (text: string) => string = (text) => text) => io.stderr.write(`${paint(safeText(line))}\n`);
  if (err instanceof ValidationError) {
    const problems = sortProblems(err.problems);
    for (const p of problems) write(formatProblem(p));
    annotations.write(problems.map((p) => ({ level: 'error', file: p.file, line: p.line, col: p.col, message: p.message })));
    write(`error: ${err.message}`, c.red);
  } else if (isUsageError(err)) {
    // yargs lays its messages out over several lines: each line made safe on its own.
    for (const [index, line] of err.message.split('\n').entries()) write(index === 0 ? `error: ${line}` : line, c.red);
  } else if (err instanceof UserError || err instanceof RemoteError) {
    write(`error: ${err.message}`, c.red);
    if (err instanceof UserError) for (const d of err.details) write(d);
  } else {
    const message = err instanceof Error ? err.message : String(err);
    write(`internal error: ${message}`, c.red);
    write('This is a bug in botrules. Please report it with the output of the same command run with --verbose.');
  }
  if (opts.verbose && err instanceof Error && err.stack) for (const line of err.stack.split('\n')) write(line, c.dim);
  return EXIT.failed;
}

/** main.ts turns every yargs failure into a UsageError; coerce and check functions throw one. */
function isUsageError(err: unknown): err is UsageError {
  return err instanceof UsageError;
}

/**
 * Output that could not be written (a full disk, an I/O error; not a closed pipe) is said on
 * stderr when stderr still works, and never ends as success: the exit code becomes 1 unless the
 * command already chose a failing one (docs/behaviour.md, "Output that cannot be written").
 */
export function reportWriteFailures(io: CliIo, exitCode: ExitCode): ExitCode {
  const failures = io.writeFailures?.() ?? [];
  if (failures.length === 0) return exitCode;
  if (!failures.some((failure) => failure.stream === 'stderr')) {
    for (const { stream, error } of failures) {
      io.stderr.write(`${safeText(`error: could not write to ${stream}: ${describeWriteError(error)}; what botrules printed there is incomplete`)}\n`);
    }
  }
  return exitCode === EXIT.ok ? EXIT.failed : exitCode;
}
