// How the GitHub Actions runner reads a step's output, for tests that check what it would do
// with botrules' stdout and stderr. Written from the runner's own code (github.com/actions/runner):
//
// - src/Runner.Sdk/ProcessInvoker.cs, StartReadStream: each stream is read with .NET's
//   `StreamReader.ReadLine()`, which ends a line at LF, CR or CRLF.
// - src/Runner.Worker/Handlers/OutputManager.cs, OnDataReceived: a line containing `##[` or `::`
//   goes to ActionCommandManager.TryProcessCommand.
// - src/Runner.Common/ActionCommand.cs, TryParseV2: `message.TrimStart()` (.NET `Char.IsWhiteSpace`,
//   which includes U+0085 NEL, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F,
//   U+3000), then the line must start with `::` and contain a second `::`; the command name runs
//   to the first space; properties are split on `,` and `=`; data and properties are unescaped
//   (`%0D`, `%0A`, `%25`, and `%3A`, `%2C` in properties). TryParse (the old form): `##[` anywhere
//   in the line, the command info up to the next `]`, properties split on `;`.
//
// The runner acts only on registered command names; these helpers report every name, so a test
// that finds no command here is stricter than the runner.

/** A workflow command the runner would parse out of one line. */
export interface RunnerCommand {
  command: string;
  properties: Record<string, string>;
  data: string;
  /** The whole line it came from. */
  line: string;
}

/** .NET `Char.IsWhiteSpace`: U+0009–U+000D, U+0020, U+0085, and the Zs, Zl and Zp categories. */
// eslint-disable-next-line no-control-regex -- the control characters .NET counts as white space are the point
const DOTNET_WHITE_SPACE = /^[\u0009-\u000d\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*/;

/** `StreamReader.ReadLine()` over the whole text: LF, CR and CRLF end a line; a final empty line is none. */
export function runnerLines(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** .NET `String.TrimStart()`. */
export function dotnetTrimStart(text: string): string {
  return text.replace(DOTNET_WHITE_SPACE, '');
}

function unescape(text: string, mappings: readonly [string, string][]): string {
  return mappings.reduce((out, [escaped, raw]) => out.split(escaped).join(raw), text);
}

const DATA_ESCAPES: [string, string][] = [['%0D', '\r'], ['%0A', '\n'], ['%25', '%']];
const PROPERTY_ESCAPES: [string, string][] = [['%0D', '\r'], ['%0A', '\n'], ['%3A', ':'], ['%2C', ','], ['%25', '%']];
const OLD_ESCAPES: [string, string][] = [['%3B', ';'], ['%0D', '\r'], ['%0A', '\n'], ['%5D', ']'], ['%25', '%']];

function properties(text: string, separator: string, mappings: readonly [string, string][]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of text.split(separator).filter((p) => p !== '')) {
    const at = pair.indexOf('=');
    if (at > 0 && at < pair.length - 1) out[pair.slice(0, at)] = unescape(pair.slice(at + 1), mappings);
  }
  return out;
}

/** TryParseV2: `::name props::data` after leading white space. */
function parseV2(line: string): RunnerCommand | undefined {
  const message = dotnetTrimStart(line);
  if (!message.startsWith('::')) return undefined;
  const end = message.indexOf('::', 2);
  if (end < 0) return undefined;
  const info = message.slice(2, end);
  const space = info.indexOf(' ');
  const command = space < 0 ? info : info.slice(0, space);
  if (command === '') return undefined;
  const props = space > 0 ? properties(info.slice(space + 1).trim(), ',', PROPERTY_ESCAPES) : {};
  return { command, properties: props, data: unescape(message.slice(end + 2), DATA_ESCAPES), line };
}

/** TryParse: `##[name props]data` anywhere in the line. */
function parseV1(line: string): RunnerCommand | undefined {
  const prefix = line.indexOf('##[');
  if (prefix < 0) return undefined;
  const close = line.indexOf(']', prefix);
  if (close < 0) return undefined;
  const info = line.slice(prefix + 3, close);
  const space = info.indexOf(' ');
  const command = space < 0 ? info : info.slice(0, space);
  if (command === '') return undefined;
  const props = space > 0 ? properties(info.slice(space + 1), ';', OLD_ESCAPES) : {};
  return { command, properties: props, data: unescape(line.slice(close + 1), OLD_ESCAPES), line };
}

/** Every workflow command the runner would find in `text`, in order. */
export function runnerCommands(text: string): RunnerCommand[] {
  return runnerLines(text).flatMap((line) => {
    const parsed = parseV2(line) ?? parseV1(line);
    return parsed ? [parsed] : [];
  });
}

/** An annotation as GitHub shows it. */
export interface RunnerAnnotation {
  level: string;
  file?: string;
  line?: string;
  col?: string;
  title?: string;
  message: string;
}

/** The annotations (`error`, `warning`, `notice`) the runner would create from `text`. */
export function runnerAnnotations(text: string): RunnerAnnotation[] {
  return runnerCommands(text)
    .filter((c) => ['error', 'warning', 'notice'].includes(c.command.toLowerCase()))
    .map((c) => ({ level: c.command.toLowerCase(), ...c.properties, message: c.data }));
}
