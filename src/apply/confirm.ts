// The interactive confirmation before apply, as Terraform asks it: only the exact word
// "yes" goes ahead. Reads one line from the given stream and leaves the rest unread. An
// interrupt while asking (the signal aborted) is a "no", and stops reading.
import type { Readable, Writable } from 'node:stream';

export async function confirm(question: string, input: Readable, output: Writable, signal?: AbortSignal): Promise<boolean> {
  output.write(`${question} `);
  const answer = await readLine(input, signal);
  return answer?.trim() === 'yes';
}

/** One line from `input` (without its line break), or undefined when the input ends first with nothing or the signal aborts. */
export function readLine(input: Readable, signal?: AbortSignal): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const cleanup = () => {
      input.off('data', onData);
      input.off('end', onEnd);
      input.off('error', onError);
      signal?.removeEventListener('abort', onAbort);
      // Stop reading so an interactive stdin does not keep the process alive.
      input.pause();
    };
    const onData = (chunk: Buffer | string) => {
      buffered += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      const newline = buffered.indexOf('\n');
      if (newline >= 0) {
        cleanup();
        resolve(buffered.slice(0, newline).replace(/\r$/, ''));
      }
    };
    const onEnd = () => {
      cleanup();
      resolve(buffered === '' ? undefined : buffered);
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onAbort = () => {
      cleanup();
      resolve(undefined);
    };
    if (signal?.aborted === true) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    input.on('data', onData);
    input.once('end', onEnd);
    input.once('error', onError);
  });
}
