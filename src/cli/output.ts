// Writes a report in the format the user chose: the format's stdout part on stdout, its
// stderr part (warnings, the summary beside a document) on stderr, each with its stream's
// colours. Every format is a module of src/render/; the command only names the entry.
import type { StreamRenderers } from '../render/contract.js';
import type { CommandContext } from './context.js';

export async function writeReport<Model>(output: StreamRenderers<Model>, model: Model, ctx: Pick<CommandContext, 'io' | 'colors' | 'errColors'>): Promise<void> {
  await output.stdout?.(model, ctx.io.stdout, { colors: ctx.colors });
  await output.stderr?.(model, ctx.io.stderr, { colors: ctx.errColors });
}

/**
 * For engines that report as they go through a callback: each model is written in turn, after
 * the one before (a callback cannot wait for its writes), and `written()` waits for them all.
 */
export function reportInTurn<Model>(output: StreamRenderers<Model>, ctx: Pick<CommandContext, 'io' | 'colors' | 'errColors'>): { write(model: Model): void; written(): Promise<void> } {
  let turn: Promise<void> = Promise.resolve();
  return {
    write: (model) => {
      turn = turn.then(() => writeReport(output, model, ctx));
    },
    written: () => turn,
  };
}
