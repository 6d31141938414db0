// The one writer of reports: the format's stdout part on stdout (or, with `--out FILE`, into
// the file, written whole or not at all), its stderr part (warnings, the summary beside a
// document) on stderr, each with its stream's colours. Every format is an entry of a registry
// of src/render/; the command only names the entry.
import { appendFile } from 'node:fs/promises';
import { NO_COLORS, type StreamRenderers } from '../render/contract.js';
import { stepOutputLines } from '../render/github-steps/index.js';
import { openOutput } from '../scripts/output.js';
import type { CommandContext } from './context.js';

type WriterContext = Pick<CommandContext, 'io' | 'colors' | 'errColors'>;

export async function writeReport<Model>(output: StreamRenderers<Model>, model: Model, ctx: WriterContext, out?: string): Promise<void> {
  if (out === undefined) await output.stdout?.(model, ctx.io.stdout, { colors: ctx.colors });
  else if (output.stdout !== undefined) await writeFile(out, ctx, (sink) => output.stdout?.(model, sink, { colors: NO_COLORS }));
  await output.stderr?.(model, ctx.io.stderr, { colors: ctx.errColors });
}

/** `--out FILE` through a temporary file renamed at the end; `-` is stdout. */
async function writeFile(out: string, ctx: WriterContext, render: (sink: { write(chunk: string): Promise<void> }) => unknown): Promise<void> {
  const file = await openOutput(out, { cwd: ctx.io.cwd, stdout: ctx.io.stdout });
  try {
    await render({ write: file.emit });
    await file.commit();
  } catch (err) {
    await file.abort();
    throw err;
  }
}

/**
 * For engines that report as they go through a callback: each model is written in turn, after
 * the one before (a callback cannot wait for its writes), and `written()` waits for them all.
 */
export function reportInTurn<Model>(output: StreamRenderers<Model>, ctx: WriterContext): { write(model: Model): void; written(): Promise<void> } {
  let turn: Promise<void> = Promise.resolve();
  return {
    write: (model) => {
      turn = turn.then(() => writeReport(output, model, ctx));
    },
    written: () => turn,
  };
}

/** Step outputs, appended to the file the runner reads them from (GITHUB_OUTPUT); nothing outside GitHub Actions. */
export async function writeStepOutputs(ctx: Pick<CommandContext, 'env'>, outputs: Readonly<Record<string, string>>): Promise<void> {
  const file = ctx.env('GITHUB_OUTPUT');
  if (file !== undefined) await appendFile(file, stepOutputLines(outputs));
}

/** Markdown appended to the job summary (GITHUB_STEP_SUMMARY); nothing outside GitHub Actions. */
export async function appendStepSummary(ctx: Pick<CommandContext, 'env'>, markdown: string): Promise<void> {
  const file = ctx.env('GITHUB_STEP_SUMMARY');
  if (file !== undefined) await appendFile(file, markdown);
}
