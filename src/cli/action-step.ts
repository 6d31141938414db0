// `botrules github action`: the step of the botrules action (action.yml), which only runs this.
// It runs the command the INPUT_* variables name in this process, its standard output shown
// in the log and kept in a file, then sets the step's outputs, adds Markdown output to the job
// summary and decides how the step ends (docs/security.md, "The action";
// examples/github-workflows/README.md).
import { createWriteStream, existsSync, type WriteStream } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { UserError } from '../errors.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { actionEnv, actionExitCode, actionInputs, actionInvocation, actionOutputs } from '../github/action-step.js';
import type { CommandContext } from './context.js';
import { appendStepSummary, writeStepOutputs } from './output.js';

export async function runActionStep(ctx: CommandContext): Promise<ExitCode> {
  if (ctx.runCli === undefined) throw new Error('github action runs only under main');
  const inputs = actionInputs(ctx.env);
  const dir = await mkdtemp(path.join(ctx.env('RUNNER_TEMP') ?? tmpdir(), 'botrules.'));
  const files = { output: path.join(dir, 'output.txt'), plan: path.join(dir, 'plan.json') };
  const { run, env } = refusedAsAnnotation(ctx, () => ({ run: actionInvocation(inputs, files.plan), env: actionEnv(ctx.io.env, inputs.tokenEnv) }));

  const output = createWriteStream(files.output);
  const shown = tee(ctx.io.stdout, output);
  const exitCode = await ctx.runCli(run.argv, { env, stdout: shown, stdoutIsTTY: false });
  shown.end();
  await finished(shown);

  const plan = existsSync(files.plan) ? { plan: files.plan } : {};
  await writeStepOutputs(ctx, actionOutputs(inputs, run, exitCode, { output: files.output, ...plan }));
  const text = run.markdown ? await readFile(files.output, 'utf8') : '';
  if (text !== '') await appendStepSummary(ctx, `${text}\n`);
  const stepExitCode = actionExitCode(inputs, exitCode);
  if (stepExitCode !== EXIT.ok) ctx.annotations.write([{ level: 'error', title: 'botrules', message: `botrules ${run.command.join(' ')} exited with code ${exitCode}` }]);
  return stepExitCode;
}

/** An input refused: said as the action's annotation as well as on stderr. */
function refusedAsAnnotation<T>(ctx: CommandContext, check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (err instanceof UserError) ctx.annotations.write([{ level: 'error', title: 'botrules action', message: err.message }]);
    throw err;
  }
}

/** Writes to the log and to the file; ending it ends the file. */
function tee(log: Writable, file: WriteStream): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      log.write(chunk);
      file.write(chunk, done);
    },
    final(done) {
      file.end(done);
    },
  });
}
