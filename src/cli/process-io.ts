// The real process behind a CliIo: its streams, with write failures recorded rather than
// thrown, and the one interrupt service every command uses (apply, scripts report, the
// emulator). Only the binary uses this; in-process tests give a CliIo of their own.
import { INTERRUPT_SIGNALS, isBrokenPipe, type CliIo, type Interrupts, type WriteFailure } from './context.js';
import { INTERRUPT_EXIT_CODES, type InterruptSignal } from '../exit-codes.js';

export function processIo(): CliIo {
  const failures: WriteFailure[] = [];
  for (const [name, stream] of [['stdout', process.stdout], ['stderr', process.stderr]] as const) {
    // A reader that closes the pipe early (`botrules plan | head -1`) is not an error: the command
    // runs on and ends with the exit code it would have had (docs/behaviour.md, "Exit codes").
    // Any other failure (a full disk, an I/O error) must not end the process either: an apply
    // that has sent a request must still write its undo plan. It is recorded, and main reports
    // it once the command is done (docs/behaviour.md, "Output that cannot be written").
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (!isBrokenPipe(err) && !failures.some((failure) => failure.stream === name)) failures.push({ stream: name, error: err });
    });
  }
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    stdinIsTTY: Boolean(process.stdin.isTTY),
    interrupts: processInterrupts,
    writeFailures: () => failures,
    parentGone(onGone) {
      const parent = process.ppid;
      const watch = setInterval(() => {
        if (process.ppid !== parent) onGone();
      }, 250);
      watch.unref();
      return () => clearInterval(watch);
    },
  };
}

/** SIGHUP (a closed terminal or SSH session), SIGINT (Ctrl-C), SIGTERM (a cancelled job): one service. */
const processInterrupts: Interrupts = {
  finish(onInterrupt) {
    // The first interrupt goes to `onInterrupt` (the command finishes what is in flight and
    // reports); a second one ends the process at once with the signal's exit code, as Terraform does.
    let received = false;
    return listen((signal) => {
      if (received) process.exit(INTERRUPT_EXIT_CODES[signal]);
      received = true;
      onInterrupt(signal);
    });
  },
  stop(cleanUp) {
    const stop = listen((signal) => {
      stop();
      cleanUp(signal);
      // Ended by the signal itself, so a parent sees it (a shell shows 128 + its number), and
      // the handlers of libraries (write-file-atomic's temporary files) run as for any signal.
      process.kill(process.pid, signal);
    });
    return stop;
  },
};

function listen(handler: (signal: InterruptSignal) => void): () => void {
  for (const signal of INTERRUPT_SIGNALS) process.on(signal, handler);
  return () => {
    for (const signal of INTERRUPT_SIGNALS) process.off(signal, handler);
  };
}
