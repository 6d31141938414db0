// Global options may stand before or after the command, through the real binary as a CI
// script calls it: no order may make a command exit 0 without doing its work.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLI_BINARY } from '../helpers/binary.js';

const BIN = CLI_BINARY;

let project: string;

beforeAll(() => {
  project = mkdtempSync(path.join(tmpdir(), 'botrules-argument-order-'));
  mkdirSync(path.join(project, 'broken'));
  writeFileSync(path.join(project, 'broken', 'a.yaml'), 'rules:\n  - name: x\n    bogus: 1\n');
  mkdirSync(path.join(project, 'good'));
  writeFileSync(
    path.join(project, 'good', 'a.yaml'),
    'rules:\n  - name: Allow monitors\n    actions: [allow]\n    conditions:\n      operator: $or\n      children:\n        - operator: $and\n          children:\n            - { conditionType: userAgent, operator: $contains, value: Pingdom }\n',
  );
});

afterAll(() => rmSync(project, { recursive: true, force: true }));

function run(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: project,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, NO_COLOR: '1' },
    timeout: 20_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('global options in any position', () => {
  const orders: [string, (command: string[], globals: string[]) => string[]][] = [
    ['before the command', (command, globals) => [...globals, ...command]],
    ['after the command', (command, globals) => [...command, ...globals]],
    ['around the command', (command, globals) => [...globals.slice(0, 2), ...command, ...globals.slice(2)]],
  ];

  describe.each(orders)('%s', (_label, arrange) => {
    it.each([['validate'], ['plan'], ['apply']])('%s of an invalid rules directory fails with its problems', (command) => {
      const result = run(arrange([command], ['--dir', 'broken', '--verbose']));
      expect(result.code).toBe(1);
      expect(result.stdout + result.stderr).toContain('broken/a.yaml:3:5');
    });

    it('validate of a valid rules directory succeeds and says so', () => {
      const result = run(arrange(['validate'], ['--dir', 'good', '--no-color']));
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^1 file, 1 rule: valid/);
    });

    it.each([['validate'], ['plan'], ['import']])('%s with a missing config file fails naming it', (command) => {
      const result = run(arrange([command], ['--config', 'validate', '--app', 'plan']));
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('config file "validate" does not exist');
    });
  });

  it('an option value that names a command is never taken for the command', () => {
    const result = run(['--app', 'validate', '--dir', 'broken', 'plan']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('unknown app "validate"');
  });

  it('global options with no command are a usage error, not a silent success', () => {
    const result = run(['--dir', 'broken']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Name a command');
  });
});
