// The one top-level error handler: turns any thrown value into lines on stderr and an exit code.
import pc from 'picocolors';
import { RemoteError, UserError, ValidationError, formatProblem, sortProblems } from '../errors.js';
import { colorEnabled, isBrokenPipe, type CliIo } from './context.js';

export function reportError(err: unknown, io: CliIo, opts: { verbose: boolean; color: boolean }): number {
  // Output cut short by its reader (`| head`) ends quietly, as a successful command would.
  if (isBrokenPipe(err)) return 0;
  const c = pc.createColors(colorEnabled(io.stderrIsTTY, io.env, opts.color));
  const write = (line: string) => io.stderr.write(`${line}\n`);
  if (err instanceof ValidationError) {
    const problems = sortProblems(err.problems);
    for (const p of problems) write(formatProblem(p));
    if (io.env.GITHUB_ACTIONS === 'true') {
      for (const p of problems) write(githubAnnotation(p.file, p.line, p.col, p.message));
    }
    write(c.red(`error: ${err.message}`));
  } else if (err instanceof UserError || err instanceof RemoteError || isUsageError(err)) {
    write(c.red(`error: ${err.message}`));
    if (err instanceof UserError) for (const d of err.details) write(d);
  } else {
    const message = err instanceof Error ? err.message : String(err);
    write(c.red(`internal error: ${message}`));
    write('This is a bug in botrules. Please report it with the output of the same command run with --verbose.');
  }
  if (opts.verbose && err instanceof Error && err.stack) write(c.dim(err.stack));
  return 1;
}

function isUsageError(err: unknown): err is Error {
  return err instanceof Error && (err.name === 'UsageError' || err.name === 'YError');
}

/** A GitHub Actions workflow command; `%`, CR, LF and the property separators are escaped. */
export function githubAnnotation(file: string, line: number, col: number, message: string): string {
  const data = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const prop = (s: string) => data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
  return `::error file=${prop(file)},line=${line},col=${col}::${data(message)}`;
}
