// The real binary on a real pseudo-terminal, as a user at a terminal runs it: util-linux
// `script` gives the command a terminal of a set size on stdin, stdout and stderr, and
// what the test writes to it arrives as typed keys (Ctrl-C is the byte 0x03, which the
// terminal turns into SIGINT for the command, and echoes as `^C`). `screenLines` then
// replays the bytes the terminal received on a small model of a terminal screen, so a test
// asserts the lines a user sees, not the escape sequences that drew them.
import { spawn } from 'node:child_process';
import { CLI_BINARY } from './binary.js';

export interface TerminalRun {
  /** The command's exit code (script passes it on: 130 after SIGINT handled by the command). */
  code: number | null;
  /** Every byte written to the terminal, as the terminal got it (`\n` arrives as `\r\n`). */
  output: string;
}

export interface TerminalOptions {
  cwd: string;
  env: Record<string, string>;
  columns: number;
  rows: number;
  /** Called with all output so far whenever more arrives; `type` writes keys to the terminal. */
  onOutput?: (output: string, type: (keys: string) => void) => void;
}

/** True when util-linux `script` can run here (it is part of every Debian and Ubuntu). */
export function hasScript(): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn('script', ['--version'], { stdio: 'ignore' });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
}

const quote = (word: string): string => `'${word.replaceAll("'", `'\\''`)}'`;

export function runInTerminal(argv: readonly string[], options: TerminalOptions): Promise<TerminalRun> {
  const command = `stty cols ${options.columns} rows ${options.rows} && exec ${[process.execPath, CLI_BINARY, ...argv].map(quote).join(' ')}`;
  return new Promise((resolve, reject) => {
    // -q: no start and end lines; -f: flush each write; -e: exit with the command's code.
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    const type = (keys: string): void => void child.stdin.write(keys);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      options.onOutput?.(output, type);
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      child.stdin.destroy();
      resolve({ code, output });
    });
  });
}

export interface Screen {
  /**
   * Every line the terminal shows, scrolled-off ones included, trailing blanks trimmed; a
   * line the terminal wrapped at its width is one entry (its rows joined), as a user reads it.
   */
  lines: string[];
  /** DECAWM: whether the terminal wraps long lines at the end (`\x1b[?7h`) or not (`\x1b[?7l`). */
  wraps: boolean;
}

/** The CSI sequence (ESC [ params final) at `at`, or undefined when there is none. */
function csiAt(text: string, at: number): { whole: string; params: string; final: string } | undefined {
  if (text[at + 1] !== '[') return undefined;
  let end = at + 2;
  while (end < text.length && '?0123456789;'.includes(text[end] as string)) end += 1;
  const final = text[end];
  if (final === undefined || !/^[A-Za-z]$/.test(final)) return undefined;
  return { whole: text.slice(at, end + 1), params: text.slice(at + 2, end), final };
}

/**
 * Replays terminal output on a screen `columns` wide: printable characters, CR, LF,
 * backspace, erase in line (`ESC [ K`, `ESC [ 2K`) and line wrapping on and off. Any other
 * escape sequence fails the test: this model would show it wrongly.
 */
export function screenLines(output: string, columns: number): Screen {
  const lines: string[][] = [[]];
  // Rows that continue the row above: the terminal wrapped a long line there.
  const continued = new Set<number>();
  let row = 0;
  let col = 0;
  let wraps = true;
  const current = (): string[] => lines[row] as string[];
  for (let i = 0; i < output.length; i += 1) {
    const char = output[i] as string;
    if (char === '\u001b') {
      const found = csiAt(output, i);
      if (found === undefined) throw new Error(`unexpected escape at ${i}: ${JSON.stringify(output.slice(i, i + 12))}`);
      const { whole, params, final } = found;
      if (final === 'K') {
        if (params === '2') lines[row] = [];
        else if (params === '' || params === '0') lines[row] = current().slice(0, col);
        else throw new Error(`unexpected erase ${whole}`);
      } else if ((final === 'h' || final === 'l') && params === '?7') {
        wraps = final === 'h';
      } else if (final === 'm') {
        // Colour: no effect on the characters shown.
      } else {
        throw new Error(`unexpected escape sequence ${JSON.stringify(whole)}`);
      }
      i += whole.length - 1;
    } else if (char === '\r') {
      col = 0;
    } else if (char === '\n') {
      row += 1;
      lines[row] ??= [];
    } else if (char === '\b') {
      col = Math.max(0, col - 1);
    } else {
      if (col >= columns) {
        if (!wraps) {
          current()[columns - 1] = char;
          continue;
        }
        row += 1;
        lines[row] = [];
        continued.add(row);
        col = 0;
      }
      const line = current();
      while (line.length < col) line.push(' ');
      line[col] = char;
      col += 1;
    }
  }
  const joined: string[] = [];
  lines.forEach((line, index) => {
    const text = line.join('');
    if (continued.has(index)) joined[joined.length - 1] += text;
    else joined.push(text);
  });
  const shown = joined.map((line) => line.trimEnd());
  while (shown.at(-1) === '') shown.pop();
  return { lines: shown, wraps };
}
