// What a newcomer met in the first week (issue "A newcomer's first day and first week", the
// smaller things), each as the user sees it through the CLI in-process: a config that only
// sets replay fields, a run from a subdirectory, --tests outside the project, a test that
// expected no rule, the emulator console's help, a leaf written under the root, an action in
// the wrong case, a console URL without /api.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { lettered, tempProject, writeRules, type Project } from '../apply/fixtures.js';
import { runCli } from '../helpers/cli.js';
import { matrixCoverageLine } from '../helpers/operator-matrix.js';
import { startEmulatorProject } from '../helpers/emulator-project.js';

let project: Project;
beforeEach(async () => {
  project = await tempProject();
});
afterEach(async () => {
  await project.close();
});

const monitors = `rules:
  - name: Allow uptime monitors
    actions: [allow]
    conditions:
      operator: $or
      children:
        - operator: $and
          children:
            - { conditionType: userAgent, operator: $contains, value: Pingdom }
            - { conditionType: socketIps, operator: $in, value: [203.0.113.0/24] }
`;

async function write(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(project.dir, file)), { recursive: true });
  await writeFile(path.join(project.dir, file), text);
}

describe('the project a newcomer has', () => {
  it('a botrules.yaml with only replay settings is the one-app project of ./rules', async () => {
    await write('botrules.yaml', 'replay:\n  fields:\n    userAgent: http.ua\n');
    await write('rules/10.yaml', monitors);
    const result = await runCli(['validate'], { cwd: project.dir, env: {} });
    expect(result).toEqual({ code: 0, stdout: '1 file, 1 rule: valid\n', stderr: `${matrixCoverageLine('rules/10.yaml:2:5', 'socketIps', 1, 'Allow uptime monitors')}\n` });
  });

  it('run from a subdirectory, says where the project is and how to get there', async () => {
    await write('botrules.yaml', 'apps:\n  - name: shop\n    rulesDir: rules\n');
    await write('rules/deep/10.yaml', monitors);
    const result = await runCli(['validate'], { cwd: path.join(project.dir, 'rules', 'deep'), env: {} });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: there is no botrules.yaml and no rules/ directory here, but ../../botrules.yaml is the config of the project in ${project.dir}\n` +
        'botrules works on the directory it runs in: run it there (cd ../..), or name a rules directory with --dir.\n',
    });
  });

  it('--tests outside the project names the directory, not a symbolic link', async () => {
    await write('rules/10.yaml', monitors);
    // Beside the project directory, and removed again: the run's temporary directory must end empty.
    const outside = `../${path.basename(project.dir)}-tests`;
    try {
      await write(`${outside}/t.yaml`, 'tests:\n  - name: t\n    request: { path: / }\n    expect: { rule: none }\n');
      const result = await runCli(['test', '--tests', outside], { cwd: project.dir, env: {} });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`error: the tests directory "${outside}" is outside the project directory; botrules reads test files only inside the directory it runs in\n` +
        'Move the tests into the project (the default is tests/ beside botrules.yaml), or run botrules from a directory that holds both.\n');
    } finally {
      await rm(path.join(project.dir, outside), { recursive: true, force: true });
    }
  });

  it('a test that expected no rule names the conditions of the rule that decided', async () => {
    await write('rules/10.yaml', monitors);
    await write('tests/t.yaml', 'tests:\n  - name: plain browser\n    request: { path: /, userAgent: "Mozilla Pingdom", ip: 203.0.113.9 }\n    expect: { rule: none }\n');
    const result = await runCli(['test'], { cwd: project.dir, env: {} });
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n').slice(1, 5)).toEqual([
      'FAIL  "plain browser" at tests/t.yaml:2:5',
      '      expected no rule, but "Allow uptime monitors" decided (allow)',
      '      "Allow uptime monitors" matches at group 1, condition 1: userAgent $contains "Pingdom" (the request\'s userAgent is "Mozilla Pingdom")',
      '      "Allow uptime monitors" matches at group 1, condition 2: socketIps $in ["203.0.113.0/24"] (the request\'s socketIps is "203.0.113.9")',
    ]);
  });
});

describe('messages a newcomer reads', () => {
  it('a leaf written under the root is one error, with no warning that contradicts it', async () => {
    await write('rules/10.yaml', 'rules:\n  - name: Leaf at root\n    actions: [hardBlock]\n    conditions:\n      operator: $or\n      children:\n        - { conditionType: userAgent, operator: $contains, value: curl }\n');
    const result = await runCli(['validate'], { cwd: project.dir, env: {} });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: 'rules/10.yaml:7:11: conditions must have exactly two levels: root → groups → leaves; this group is a leaf condition (put it in the "children" of a group)\nerror: 1 problem found\n',
    });
  });

  it.each([['hardblock', 'hardBlock'], ['Allow', 'allow'], ['blockWithChalenge', 'blockWithChallenge']])('action %s suggests %s', async (typed, meant) => {
    await write('rules/10.yaml', monitors.replace('actions: [allow]', `actions: [${typed}]`));
    const result = await runCli(['validate'], { cwd: project.dir, env: {} });
    expect(result.stderr.split('\n')[0]).toBe(`rules/10.yaml:3:15: action "${typed}" is not one of allow, blockWithChallenge, hardBlock; did you mean "${meant}"?`);
  });

  it('an action far from every allowed one gets no guess', async () => {
    await write('rules/10.yaml', monitors.replace('actions: [allow]', 'actions: [deny]'));
    const result = await runCli(['validate'], { cwd: project.dir, env: {} });
    expect(result.stderr.split('\n')[0]).toBe('rules/10.yaml:3:15: action "deny" is not one of allow, blockWithChallenge, hardBlock');
  });

  it('emulator console --help lists its own options, not the server\'s, and refuses a server option', async () => {
    const help = await runCli(['emulator', 'console', '--help'], { cwd: project.dir, env: {} });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--position');
    expect(help.stdout).not.toMatch(/--(port|seed|fault|generate-rules|state)\b/);
    const refused = await runCli(['emulator', 'console', 'create', 'X', '--port', '3'], { cwd: project.dir, env: {} });
    expect(refused.code).toBe(1);
    expect(refused.stderr.split('\n')[0]).toBe('error: Unknown argument: --port');
  });

  it('a console URL without /api is named, with the form it takes', async () => {
    const emulator = await startEmulatorProject({ seedRules: lettered(1) });
    try {
      await writeRules(emulator.rulesDir, lettered(1));
      const consoleUrl = emulator.env.BOTRULES_CONSOLE_URL?.replace(/\/api$/, '') ?? '';
      const result = await emulator.run(['plan'], { env: { BOTRULES_CONSOLE_URL: consoleUrl } });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`error: listing rules of app default failed: ${new URL(consoleUrl).host} answered 404 Not Found (no such path: /v2/botProtection/customRules): ` +
        'check BOTRULES_CONSOLE_URL: it names the management host\'s API base, which ends in /api (https://console.example.com/api), and this one ends in "/"\n');
    } finally {
      await emulator.close();
    }
  });
});
