// The README's command reference against the real binary's --help: every option the table names
// exists on that command, and every option a command's --help lists is documented in the README,
// so neither can drift from the other.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { CLI_BINARY } from '../helpers/binary.js';

const README = readFileSync('README.md', 'utf8');
const section = README.slice(README.indexOf('\n## Commands\n'), README.indexOf('\n### Exit codes\n'));
/** Each table row: the command words (`scripts report`) and the options it names. */
const ROWS = [...section.matchAll(/^\| `botrules ([a-z]+(?: [a-z]+)?)([^`]*)` \|/gm)].map((match) => ({
  command: (match[1] as string).split(' ').filter((word) => !/^[A-Z]/.test(word)),
  options: [...(match[2] as string).matchAll(/--([a-z][a-z-]*)/g)].map((option) => option[1] as string),
}));
const EVERY_COMMAND = [...(/^Every command takes (.+)$/m.exec(section)?.[1] ?? '').matchAll(/`--([a-z-]+)/g)].map((option) => option[1] as string);

function helpOf(command: string[]): { status: number | null; stdout: string } {
  return spawnSync(process.execPath, [CLI_BINARY, ...command, '--help'], { encoding: 'utf8', env: { PATH: process.env.PATH, NO_COLOR: '1' }, timeout: 60_000 });
}

/** The long options --help lists (the README names a boolean by its negation, `--no-color`, where that is what users type). */
function optionsIn(help: string): string[] {
  return [...help.matchAll(/^\s+(?:-[a-z], )?--([a-z][a-z-]*)/gm)].map((match) => match[1] as string);
}

it('the README names every command with its options', () => {
  expect(ROWS.map((row) => row.command.join(' '))).toEqual(['validate', 'test', 'replay', 'plan', 'diff', 'apply', 'live', 'import', 'scripts report', 'scripts diff', 'scripts verify', 'scripts evidence', 'emulator']);
  expect(EVERY_COMMAND).toEqual(['config', 'dir', 'app', 'no-color', 'verbose']);
});

describe.each(ROWS.map((row) => [row.command.join(' '), row] as const))('botrules %s', (_name, row) => {
  const help = helpOf(row.command);
  const listed = new Set(optionsIn(help.stdout));

  it('has every option the README table names, and the options every command takes', () => {
    expect(help.status).toBe(0);
    const named = [...row.options, ...EVERY_COMMAND].map((option) => option.replace(/^no-/, ''));
    expect(named.filter((option) => !listed.has(option))).toEqual([]);
  });

  it('documents in the README every option its --help lists', () => {
    // A boolean may be documented by its negation (`--no-color`).
    const documented = (option: string) => README.includes(`--${option}`) || README.includes(`--no-${option}`);
    const undocumented = [...listed].filter((option) => !['help', 'version'].includes(option) && !documented(option));
    expect(undocumented).toEqual([]);
  });
});
