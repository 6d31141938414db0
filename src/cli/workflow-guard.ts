// Under GitHub Actions the runner reads every line of the job log for workflow commands:
// a line starting with `::` (after leading white space), and the older `##[command]` form
// anywhere in a line. botrules prints untrusted text (docs/security.md, "Untrusted text"), so
// its stdout and stderr are guarded at the stream: any such line it did not make itself is
// defused with a visible backslash. Its own annotations go through `writeWorkflowCommand`.
//
// The guard speaks the runner's grammar (actions/runner: ProcessInvoker reads lines with .NET
// `StreamReader.ReadLine`, which ends a line at LF, CR or CRLF; ActionCommand.TryParseV2 trims
// with .NET `TrimStart`, whose white space includes U+0085, U+00A0, U+2028, U+2029 and the
// Unicode spaces). It starts a line after each of LF, CR, NEL, U+2028 and U+2029 (the last
// three do not end a line for the runner today, but do for other readers of a log), and skips
// every character either JavaScript or .NET counts as white space. Escaping, rather than
// wrapping output in `::stop-commands::<token>`, keeps botrules' own annotations working
// between untrusted lines and leaves no state behind if the process dies mid-output.
import type { Writable } from 'node:stream';

/** The raw stream behind each guarded one and its held-back text, for botrules' own commands. */
const GUARDED = new WeakMap<object, { raw: Writable; flush(): void; atLineStart(): boolean }>();

/** White space the runner (and JavaScript) trims before looking for `::`. */
const SPACE = '\\s\\u001c-\\u001f\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
const LEADING_SPACE = new RegExp(`^[${SPACE}]*`);
/** A line start that the next chunk could still turn into `::`. */
const OPEN_LINE_START = new RegExp(`^[${SPACE}]*:?$`);
/** Characters after which a reader of the log starts a new line. */
const LINE_END = /[\n\r\u0085\u2028\u2029]/g;

/**
 * A stream that writes to `stream`, defusing workflow commands (`stream` itself when it is one). Everything but `write` and
 * `end` is the underlying stream's own (events, `drain`, `writableLength`), so callers that
 * wait for `drain` or listen for `error` behave as before.
 */
export function guardWorkflowCommands<S extends Writable>(stream: S): S {
  // A command line run inside another (`github action`) gets the streams guarded already.
  if (GUARDED.has(stream)) return stream;
  const defuse = lineDefuser();
  const flush = () => {
    const tail = defuse.flush();
    if (tail !== '') stream.write(tail);
  };
  const guarded = new Proxy(stream, {
    get(target, property) {
      if (property === 'write') return (chunk: unknown, ...rest: unknown[]) => writeThrough(target, defuse(String(chunk)), rest);
      if (property === 'end') {
        return (...rest: unknown[]) => {
          flush();
          return (target.end as (...args: unknown[]) => unknown)(...rest.filter((arg) => typeof arg === 'function'));
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  GUARDED.set(guarded, { raw: stream, flush, atLineStart: () => defuse.atLineStart() });
  return guarded;
}

function writeThrough(target: Writable, text: string, rest: unknown[]): boolean {
  const callback = rest.find((arg) => typeof arg === 'function') as ((err?: Error | null) => void) | undefined;
  if (text === '') {
    if (callback) queueMicrotask(() => callback());
    return true;
  }
  return callback ? target.write(text, callback) : target.write(text);
}

/** Writes a workflow command botrules made itself (its data already escaped), unguarded. */
export function writeWorkflowCommand(stream: Writable, line: string): void {
  const guard = GUARDED.get(stream);
  guard?.flush();
  // A command counts only at the start of a line: untrusted text left mid-line ends first.
  const lineBreak = guard && !guard.atLineStart() ? '\n' : '';
  (guard?.raw ?? stream).write(`${lineBreak}${line}\n`);
}

/** Writes out what a guarded stream held back (output that ended mid-line); the end of a run. */
export function flushWorkflowGuard(stream: Writable): void {
  GUARDED.get(stream)?.flush();
}

interface LineDefuser {
  (chunk: string): string;
  /** What is held back at the end of the output. */
  flush(): string;
  /** Whether the text written so far ends at the start of a line. */
  atLineStart(): boolean;
}

/**
 * Rewrites chunks so that no line starts with `::` and no `##[` appears. Text that could
 * still become one of them when the next chunk arrives (a line start of spaces and at most
 * one colon, or trailing `#`s) is held back until then, so a command split across two
 * writes is defused too.
 */
function lineDefuser(): LineDefuser {
  let held = '';
  let lineStart = true;
  const defuse = ((chunk: string): string => {
    const text = held + chunk;
    held = '';
    let out = '';
    let pos = 0;
    while (pos < text.length) {
      LINE_END.lastIndex = pos;
      const newline = LINE_END.exec(text)?.index ?? -1;
      const complete = newline !== -1;
      let segment = complete ? text.slice(pos, newline + 1) : text.slice(pos);
      pos += segment.length;
      if (!complete) {
        held = heldBack(segment, lineStart);
        segment = segment.slice(0, segment.length - held.length);
      }
      if (segment === '') break;
      out += defuseOldForm(lineStart ? defuseLineStart(segment) : segment);
      lineStart = complete;
    }
    return out;
  }) as LineDefuser;
  defuse.flush = () => {
    const tail = held;
    held = '';
    if (tail !== '') lineStart = false;
    return tail;
  };
  defuse.atLineStart = () => lineStart && held === '';
  return defuse;
}

/** The end of an unfinished line that the next chunk could turn into a command. */
function heldBack(segment: string, lineStart: boolean): string {
  if (lineStart && OPEN_LINE_START.test(segment)) return segment;
  return /#{1,2}$/.exec(segment)?.[0] ?? '';
}

function defuseLineStart(line: string): string {
  const space = LEADING_SPACE.exec(line)?.[0] ?? '';
  return line.startsWith('::', space.length) ? `${space}\\${line.slice(space.length)}` : line;
}

/** `\u0023` is `#` to a JSON reader, so JSON output stays valid JSON. */
function defuseOldForm(line: string): string {
  return line.replace(/##\[/g, '#\\u0023[');
}
