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
  ])('%j says so once, with a suggestion', (args, message) => {
    const result = botrules(...args);
    expect(result).toEqual({ code: 1, stderr: message, stdout: '' });
  });
});
