// Typos through the real binary: a mistyped option is named once, as typed, with the nearest
// option; a mistyped command or subcommand is named with the nearest command. Exit 1, and
// nothing runs.
import { spawnSync } from 'node:child_process';
import { CLI_BINARY } from '../helpers/binary.js';

function botrules(...args: string[]): { code: number | null; stderr: string; stdout: string } {
  const result = spawnSync(process.execPath, [CLI_BINARY, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH, NO_COLOR: '1' } });
  return { code: result.status, stderr: result.stderr, stdout: result.stdout };
}

describe('typos', () => {
  it.each([
    [['plan', '--detailed-exitcod'], 'error: Unknown argument: --detailed-exitcod (did you mean --detailed-exitcode?)\n'],
    [['--dri', 'rules', 'validate'], 'error: Unknown argument: --dri (did you mean --dir?)\n'],
    [['validate', '--strictt', '--bogus-thing-here'], 'error: Unknown arguments: --strictt (did you mean --strict?), --bogus-thing-here\n'],
    [['valdate'], 'error: Unknown command "valdate". Did you mean validate?\n'],
    [['--dir', 'rules', 'scripts', 'reprt'], 'error: Unknown command "reprt". Did you mean report?\n'],
    [['scripts', 'verifyy', 'snaps'], 'error: Unknown command "verifyy". Did you mean verify?\n'],
  ])('%j says so once, with a suggestion', (args, message) => {
    const result = botrules(...args);
    expect(result).toEqual({ code: 1, stderr: message, stdout: '' });
  });
});

describe('words a command does not take', () => {
  it.each([
    // Words are said as words, never as options nobody typed (`--zzzzzz`).
    [['scripts', 'zzzzzz', 'snaps'], 'error: "zzzzzz", "snaps" are not an action or argument of botrules scripts: see botrules scripts --help\n'],
    [['validate', 'extra'], 'error: "extra" is not an action or argument of botrules validate: see botrules validate --help\n'],
    [['zzzzzzzz'], 'error: Unknown command "zzzzzzzz": see botrules --help\n'],
    [['plan', 'x', '--bogus'], 'error: Unknown argument: --bogus\n"x" is not an action or argument of botrules plan: see botrules plan --help\n'],
    [['scripts', 'diff', 'a.json'], 'error: missing arguments: got 1, needs at least 2 (see --help)\n'],
  ])('%j names each word once, as a word', (args, message) => {
    expect(botrules(...args)).toEqual({ code: 1, stderr: message, stdout: '' });
  });
});
