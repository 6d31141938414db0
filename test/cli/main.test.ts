import { readFileSync } from 'node:fs';
import { runCli } from '../helpers/cli.js';
import { COMMANDS, commandName } from '../../src/cli/commands.js';
import { VERSION } from '../../src/version.js';

describe('the CLI shell', () => {
  it('prints the version from package.json', async () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
    const result = await runCli(['--version']);
    expect(result).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it('lists every command in --help', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    for (const entry of COMMANDS) expect(result.stdout).toContain(`botrules ${commandName(entry)}`);
  });

  it('fails with a usage message and exit 1 when no command is named', async () => {
    const result = await runCli([]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Name a command');
    expect(result.stderr).not.toContain('at ');
  });

  it.each(COMMANDS.map((c) => [commandName(c), c] as const))('loads the module of %s', async (_name, entry) => {
    const module = await entry.load();
    expect(typeof module.builder).toBe('function');
    expect(typeof module.run).toBe('function');
  });
});
