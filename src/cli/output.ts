// Writes a report in the format the user chose: the format's stdout part on stdout, its
// stderr part (warnings, the summary beside a document) on stderr, each with its stream's
// colours. Every format is a module of src/render/; the command only names the entry.
import type { StreamRenderers } from '../render/contract.js';
import type { CommandContext } from './context.js';

export async function writeReport<Model>(output: StreamRenderers<Model>, model: Model, ctx: Pick<CommandContext, 'io' | 'colors' | 'errColors'>): Promise<void> {
  await output.stdout(model, ctx.io.stdout, { colors: ctx.colors });
  await output.stderr?.(model, ctx.io.stderr, { colors: ctx.errColors });
}
