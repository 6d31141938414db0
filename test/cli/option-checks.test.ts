// The option checks of the command definitions, in-process: each bad value is a usage error
// (exit 1, one line naming the option, the value given and what is accepted) before the
// command reads a file or the environment. The real binary runs the same checks in
// test/cli/command-matrix.e2e.test.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { startEmulatorProject } from '../helpers/emulator-project.js';
import { tempDir } from '../helpers/temp.js';

let dir: string;
beforeAll(() => {
  dir = tempDir('botrules-option-checks-');
});

it.each<[string[], string]>([
  [['apply', '--concurrency', 'many'], '--concurrency must be a whole number of at least 1, not something that is not a number'],
  [['apply', '--concurrency', '1.5'], '--concurrency must be a whole number of at least 1, not 1.5'],
  [['apply', '--auto-approve', '--concurrency'], '--concurrency needs a value'],
  [['apply', '--concurrency', '2', '--concurrency', '3'], '--concurrency takes one value, not 2 (2, 3)'],
  [['apply', '--max-changes', '-1'], '--max-changes must be a whole number of at least 0, not -1'],
  [['import', '--update', '--force'], '--update and --force cannot be used together'],
  [['import', '--out', 'x', '--update'], '--update and --out cannot be used together'],
  [['import', '--dry-run'], '--dry-run needs --update'],
  [['import', '--prune', '--no-update'], '--prune, --dry-run and --pin need --update, not --no-update'],
  [['scripts', 'report'], 'missing required options --app-id, --tld\nSee botrules scripts report --help.'],
  [['scripts', 'report', '--app-id', 'a'], 'missing required option --tld\nSee botrules scripts report --help.'],
  [['scripts', 'report', '--app-id', ',', '--tld', 't'], '--app-id needs at least one value, e.g. --app-id app-demo'],
  [['scripts', 'report', '--app-id', 'a', '--tld', 't', '--page-size', '10001'], '--page-size must be a whole number from 1 to 10000, not 10001'],
  [['scripts', 'report', '--app-id', 'a', '--tld', 't', '--concurrency', '0'], '--concurrency must be a whole number from 1 to 64, not 0'],
  [['scripts', 'diff', 'a.json', 'b.json', '--fail-on', 'new,bogus'], '--fail-on: unknown condition bogus; choose from new, risk-up, unapproved, high-risk'],
  [['plan', '--format', 'yaml'], '--format must be one of "text", "json", "markdown", not "yaml"'],
  [['emulator', '--app-token', 'shop'], '--app-token takes NAME=TOKEN, e.g. --app-token shop="$SHOP_TOKEN"'],
  [['emulator', '--app-token', 'shop=a', '--app-token', 'shop=b'], '--app-token names the app "shop" twice'],
  [['emulator', '--port', '65536'], '--port must be a whole number from 0 to 65535, not 65536'],
  [['emulator', '--fault', 'drop', '--fault', 'status=99'], '--fault: invalid fault "status=99": status must be an HTTP error code (400-599)\nSyntax: a fault is "status=CODE[,retry-after=S]" or "drop", then optional method=M, path=/prefix, times=N, after=N, rate=P'],
  [['emulator', '--generate-rules', '-1'], '--generate-rules must be a whole number of at least 0, not -1'],
])('%j is refused before anything runs', async (argv, message) => {
  const result = await runCli(argv, { cwd: dir, env: {} });
  expect(result).toEqual({ code: 1, stdout: '', stderr: `error: ${message}\n` });
});

it('never repeats a token given to --app-token', async () => {
  const result = await runCli(['emulator', '--app-token', 'shop=', '--app-token', '=tok-secret-123'], { cwd: dir, env: {} });
  expect(result.code).toBe(1);
  expect(result.stderr).not.toContain('tok-secret-123');
});

it('accepts comma-separated and repeated lists: split, trimmed, blanks dropped, each value once', async () => {
  const project = await startEmulatorProject();
  try {
    const result = await project.run(['scripts', 'report', '--app-id', 'a,b', '--app-id', 'a', '--tld', ' t ,', '--out', 'snapshot.json']);
    expect(result.code).toBe(0);
    // What the gateway was asked for, and what the snapshot records.
    const asked = project.emulator.log.filter((entry) => entry.path === '/v1/scripts').map((entry) => [entry.query.appId, entry.query.tld]);
    expect(asked).toEqual([['["a","b"]', '["t"]']]);
    const snapshot = JSON.parse(readFileSync(path.join(project.dir, 'snapshot.json'), 'utf8'));
    expect([snapshot.query.appId, snapshot.query.tld]).toEqual([['a', 'b'], ['t']]);
  } finally {
    await project.close();
  }
});

it.each([
  [['scripts', 'diff', 'a.json', 'b.json', '--fail-on', '\u001b]0;title\u0007']],
  [['plan', '--format', '\u001b[2J']],
  [['emulator', '--fault', 'status=500,path=\u001b[31m,times=x']],
])('%j: a control character in a refused value is shown escaped, never sent to the terminal', async (argv) => {
  const result = await runCli(argv, { cwd: dir, env: {} });
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/^error: /);
  const controls = [...result.stderr].filter((c) => c !== '\n' && (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f));
  expect(controls).toEqual([]);
});
