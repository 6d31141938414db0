// The one renderer contract, for every report: a renderer takes a model (what to show), a sink
// (where to write) and options (how); a report's formats are one registry of one shape,
// `OutputRegistry` (format name → what it writes on stdout and on stderr), whose names are the
// `--format` choices. Renderers never touch process streams and never read the environment:
// the CLI passes plain values and writes through its one writer (src/cli/output.ts).
import pc from 'picocolors';

/** picocolors helpers; every function is the identity when colour is off. */
export type Colors = ReturnType<typeof pc.createColors>;

/** Colour helpers that add nothing. */
export const NO_COLORS: Colors = pc.createColors(false);

/**
 * Where a renderer writes: a stream, a file or a test buffer. `write` may return a promise
 * that resolves when the chunk is taken (backpressure); streamed renderers await it.
 */
export interface Sink {
  write(chunk: string): unknown;
}

export interface RenderOptions {
  colors: Colors;
  /**
   * CSV: prefix cells a spreadsheet would read as formulas with `'` (docs/security.md,
   * "Untrusted text"). On unless this is false.
   */
  csvFormulaEscape?: boolean;
  /** The output is a terminal: CSV cells, which are otherwise exact data, are made safe too. */
  terminal?: boolean;
}

export type Renderer<Model> = (model: Model, sink: Sink, options: RenderOptions) => void | Promise<void>;

/** Most reports for people are lines: each written with its line break, in order, waiting for the sink to take it. */
export async function writeLines(sink: Sink, lines: Iterable<string>): Promise<void> {
  for (const line of lines) await sink.write(`${line}\n`);
}

/** The format names of a registry, in registration order. */
export function formatNames<R extends Readonly<Record<string, unknown>>>(registry: R): (keyof R & string)[] {
  return Object.keys(registry) as (keyof R & string)[];
}

/**
 * What one `--format` of a command's report writes, per stream: `stdout` holds the document
 * (text for people, or JSON, SARIF, JUnit for tools), `stderr` the lines for people that must
 * not mix into a document (warnings, the summary beside a SARIF or JUnit document). The CLI
 * only picks the entry by format name and hands it the two streams.
 */
export interface StreamRenderers<Model> {
  /** Absent for a report that has lines for people only (a notice beside a document written before). */
  stdout?: Renderer<Model>;
  stderr?: Renderer<Model>;
}

/** A report's formats by name, each with what it writes on stdout and stderr. */
export type OutputRegistry<Model> = Readonly<Record<string, StreamRenderers<Model>>>;
