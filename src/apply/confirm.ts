// The interactive confirmation before apply, as Terraform asks it: only the exact word
// "yes" goes ahead. One line is read with node:readline; an input that ends first, or an
// interrupt while asking (the signal aborted), is a "no", and reading stops.
import { once } from 'node:events';
import { createInterface } from 'node:readline/promises';
import type { Readable, Writable } from 'node:stream';
import { definedFields } from '../defined.js';

export async function confirm(question: string, input: Readable, output: Writable, signal?: AbortSignal): Promise<boolean> {
  if (interrupted(signal)) return false;
  // Not a terminal interface: the terminal itself echoes the answer, and no raw mode is left behind after Ctrl-C.
  // No output either: the question is written here, because readline answers an aborted
  // question by writing a line break of its own, a blank line under the interrupt's notice.
  const lines = createInterface({ input, terminal: false });
  // A question pending when the input ends is never answered: readline emits the unfinished
  // last line as a 'line' event instead, and an input with none left answers nothing.
  const listening = new AbortController();
  const lastLine = once(lines, 'line', listening).then(([line]) => String(line));
  const ended = once(lines, 'close', listening).then(() => undefined);
  const failed = once(input, 'error', listening).then(([err]) => Promise.reject(err as Error));
  try {
    output.write(`${question} `);
    const answer = await Promise.race([lines.question('', definedFields({ signal })), lastLine, ended, failed]);
    return answer?.trim() === 'yes';
  } catch (err) {
    if (interrupted(signal)) return false;
    throw err;
  } finally {
    listening.abort();
    lines.close();
    // Stop reading so an interactive stdin does not keep the process alive.
    input.pause();
  }
}

/** Read at the moment it is called: the signal aborts while the question waits. */
function interrupted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
