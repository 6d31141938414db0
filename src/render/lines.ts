// Most reports for people are lines: each written with its line break, in order, waiting for
// the sink to take it (a pipe's backpressure).
import type { Sink } from './contract.js';

export async function writeLines(sink: Sink, lines: Iterable<string>): Promise<void> {
  for (const line of lines) await sink.write(`${line}\n`);
}
