// The structure of action.yml (actionlint does not read action metadata), and the botrules
// command lines that the action and the workflows amount to, checked against the documented
// command-line surface.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ACTION_COMMANDS, actionInvocation as commandLine, actionOutputs as stepOutputs, PLAN_FLAGS } from '../../src/github/action-step.js';
import { EXIT } from '../../src/exit-codes.js';
import { actionInputs, actionInvocation, actionOutputs, actionSteps, readAction } from './action-metadata.js';
import { checkInvocation, COMMAND_SURFACE, GLOBAL_FLAGS, invocationsInText, type Invocation } from './cli-surface.js';
import {
  ACTION_FILE,
  isMap,
  mapAt,
  readYamlFile,
  REPO_ROOT,
  stepsOf,
  usesBotrulesAction,
  walkStrings,
  workflowFiles,
  type YamlMap,
} from './workflow-files.js';

const EXAMPLES_README = 'examples/github-workflows/README.md';
/** Outputs `botrules github artifact` and `scripts report` append to GITHUB_OUTPUT themselves. */
const BOTRULES_WRITES = ['found', 'run-id', 'artifact-id', 'chain-head'];

const action = readAction();
const workflows = workflowFiles().map(readYamlFile);
const actionUses = workflows.flatMap((yaml) => stepsOf(yaml).filter((ref) => usesBotrulesAction(ref.step)));

describe('action.yml', () => {
  it('is a composite action whose run steps all name their shell', () => {
    expect(mapAt(action.data, 'runs').using).toBe('composite');
    const steps = actionSteps(action);
    expect(steps.length).toBeGreaterThan(0);
    for (const step of steps) {
      expect(typeof step.run === 'string' || typeof step.uses === 'string').toBe(true);
      if (typeof step.run === 'string') expect(step.shell).toBe('bash');
    }
  });

  it('describes every input and output, and gives the optional inputs a default', () => {
    for (const [name, input] of Object.entries(actionInputs(action))) {
      expect({ name, described: isMap(input) && typeof input.description === 'string' }).toEqual({ name, described: true });
      if (isMap(input) && input.required !== true) expect({ name, default: typeof input.default }).toEqual({ name, default: 'string' });
    }
    for (const [name, output] of Object.entries(actionOutputs(action))) {
      expect({ name, described: isMap(output) && typeof output.description === 'string' }).toEqual({ name, described: true });
    }
  });

  it('has the inputs and outputs the documentation promises', () => {
    expect(Object.keys(actionInputs(action)).sort()).toEqual(
      ['app', 'args', 'command', 'config', 'format', 'node-version', 'token-env', 'working-directory'].sort(),
    );
    expect(Object.keys(actionOutputs(action)).sort()).toEqual(['exitcode', 'has-changes', 'markdown-file', 'output-file', 'plan-file', 'sarif-file', 'found', 'run-id', 'artifact-id', 'chain-head'].sort());
    expect(mapAt(actionInputs(action), 'node-version').default).toBe('24');
  });

  it('uses every input it declares and references no other', () => {
    const referenced = new Set<string>();
    walkStrings(action.data.runs, (_keys, text) => {
      for (const match of text.matchAll(/\binputs\.([\w-]+)/g)) referenced.add(match[1] ?? '');
    });
    expect([...referenced].sort()).toEqual(Object.keys(actionInputs(action)).sort());
  });

  it('maps every output to an output its step writes', () => {
    const steps = actionSteps(action);
    // What `botrules github action` writes, for a plan (with its plan file) and a SARIF run.
    const noInputs = { command: '', args: '', app: '', config: '', format: '', tokenEnv: '' };
    const written = [{ ...noInputs, command: 'plan' }, { ...noInputs, command: 'validate', format: 'sarif' }].flatMap((inputs) =>
      Object.keys(stepOutputs(inputs, commandLine(inputs, 'plan.json'), EXIT.found, { output: 'output.txt', plan: 'plan.json' })));
    for (const [name, output] of Object.entries(actionOutputs(action))) {
      const match = /^\$\{\{\s*steps\.([\w-]+)\.outputs\.([\w-]+)\s*\}\}$/.exec(String(isMap(output) ? output.value : ''));
      expect({ name, mapsToStepOutput: match !== null }).toEqual({ name, mapsToStepOutput: true });
      const step = steps.find((s) => s.id === match?.[1]);
      expect(String(step?.run)).toContain('node "$cli" github action');
      // found, run-id and artifact-id: botrules github artifact writes them itself (test/github/artifact-provenance.test.ts);
      // chain-head: scripts report does (test/scripts/report-chain-head.e2e.test.ts).
      if (BOTRULES_WRITES.includes(name)) continue;
      expect({ name, written: written.includes(match?.[2] ?? '') }).toEqual({ name, written: true });
    }
  });

  it('installs Node.js with the token variables blanked and no cache restored', () => {
    const setup = actionSteps(action).find((step) => String(step.uses).startsWith('actions/setup-node@')) as YamlMap;
    expect(mapAt(setup, 'env')).toEqual({ BOTRULES_TOKEN: '', BOTRULES_API_TOKEN: '' });
    expect(mapAt(setup, 'with')).toEqual({ 'node-version': '${{ inputs.node-version }}', 'package-manager-cache': false, cache: '' });
  });

  it('runs exactly the documented commands', () => {
    const mapping = new Map(Object.entries(ACTION_COMMANDS).map(([name, words]) => [name, words.join(' ')]));
    expect(Object.fromEntries(mapping)).toEqual({
      validate: 'validate',
      test: 'test',
      plan: 'plan',
      apply: 'apply',
      live: 'live',
      import: 'import',
      config: 'config',
      'scripts-report': 'scripts report',
      'scripts-diff': 'scripts diff',
      'github-artifact': 'github artifact',
      'github-plan-comment': 'github plan-comment',
      'github-drift-pr': 'github drift-pr',
      'github-drift-issue': 'github drift-issue',
      'scripts-verify': 'scripts verify',
      'scripts-evidence': 'scripts evidence',
    });
    for (const target of mapping.values()) expect(Object.keys(COMMAND_SURFACE)).toContain(target);
    const described = String(mapAt(actionInputs(action), 'command').description);
    for (const name of mapping.keys()) expect(described).toContain(name);
  });

  it('plans with --detailed-exitcode, Markdown output and a saved JSON plan', () => {
    const flags = [...PLAN_FLAGS, 'plan.json'];
    expect(flags).toEqual(expect.arrayContaining(['--detailed-exitcode', '--format', 'markdown', '--out']));
    expect(checkInvocation({ source: ACTION_FILE, command: 'plan', args: flags, complete: true })).toEqual([]);
  });

  it('passes only documented flags to botrules', () => {
    const known = new Set([...Object.keys(GLOBAL_FLAGS), ...Object.values(COMMAND_SURFACE).flatMap((c) => Object.keys(c.flags))]);
    const inputs = { command: '', args: '', app: 'shop', config: 'botrules.yaml', format: 'text', tokenEnv: '' };
    const added = Object.keys(ACTION_COMMANDS).flatMap((command) => commandLine({ ...inputs, command, format: command === 'plan' ? '' : 'text' }, 'plan.json').argv);
    const scripts = actionSteps(action).map((step) => String(step.run ?? '')).join('\n');
    const flags = [...added, ...scripts.matchAll(/(?<![\w-])--[a-z][\w-]*/g)].map(String).filter((word) => word.startsWith('--')).map((flag) => flag.slice(2));
    expect(flags).toEqual(expect.arrayContaining(['config', 'app', 'format', 'detailed-exitcode', 'out']));
    expect(flags.filter((flag) => !known.has(flag))).toEqual([]);
  });

  it('installs nothing: no package manager and no script but the bundled CLI runs in any step', () => {
    const scripts = actionSteps(action).map((step) => String(step.run ?? '')).join('\n');
    expect(scripts).not.toMatch(/\b(npm|npx|yarn|pnpm|corepack)\b/);
    const runs = [...scripts.matchAll(/^\s*node\s+(\S+)/gm)].map((m) => m[1]);
    expect(runs).toEqual(['"$cli"']);
    expect(scripts).toContain('cli="$ACTION_PATH/dist-action/botrules.mjs"');
    expect(scripts).toContain('node "$cli" github action');
    const uses = actionSteps(action).map((step) => step.uses).filter((u) => u !== undefined);
    expect(uses).toEqual([expect.stringMatching(/^actions\/setup-node@[0-9a-f]{40}$/)]);
  });
});

describe('botrules command lines in the workflows', () => {
  it('are found: every example and CI runs the action (the release workflow only builds it, the npx variant runs the tarball)', () => {
    const files = new Set(actionUses.map((ref) => ref.file));
    const npxVariant = (file: string) => file.startsWith('examples/github-workflows/npx/');
    for (const file of workflows.map((w) => w.file).filter((f) => f !== '.github/workflows/release.yml' && !npxVariant(f))) expect({ file, runsTheAction: files.has(file) }).toEqual({ file, runsTheAction: true });
    const variant = workflows.filter((w) => npxVariant(w.file));
    expect(variant.map((w) => w.file)).toEqual(['examples/github-workflows/npx/apply.yml', 'examples/github-workflows/npx/plan.yml', 'examples/github-workflows/npx/replay-matrix.yml']);
    for (const w of variant) {
      expect({ file: w.file, runsTheAction: files.has(w.file) }).toEqual({ file: w.file, runsTheAction: false });
      // The installed tarball and nothing else: npx must never fetch a package named botrules from a registry.
      const npx = stepsOf(w).map((ref) => ref.step.run).filter((run): run is string => typeof run === 'string' && run.includes('npx '));
      expect(npx.length).toBeGreaterThan(0);
      for (const run of npx) expect(run.match(/npx (?!--no-install botrules )\S*/g)).toBeNull();
    }
  });

  it('give the action only inputs it declares, and every input it requires', () => {
    const declared = actionInputs(action);
    const required = Object.entries(declared).filter(([, input]) => isMap(input) && input.required === true).map(([name]) => name);
    for (const ref of actionUses) {
      const given = Object.keys(mapAt(ref.step, 'with'));
      expect({ step: `${ref.file} ${ref.where}`, unknown: given.filter((name) => !(name in declared)) }).toEqual({
        step: `${ref.file} ${ref.where}`,
        unknown: [],
      });
      for (const name of required) expect(given).toContain(name);
    }
  });

  it('never set a format other than markdown for plan (the action prints Markdown)', () => {
    const plans = actionUses.filter((ref) => mapAt(ref.step, 'with').command === 'plan');
    expect(plans.length).toBeGreaterThan(0);
    for (const ref of plans) expect(['markdown', undefined]).toContain(mapAt(ref.step, 'with').format);
  });

  it('use only documented commands, flags and values', () => {
    const invocations: Invocation[] = [
      ...actionUses.map((ref) => actionInvocation(ref)),
      ...[...workflows, action].flatMap((yaml) => invocationsInText(yaml.file, yaml.text)),
      ...invocationsInText(EXAMPLES_README, readFileSync(path.join(REPO_ROOT, EXAMPLES_README), 'utf8')),
    ];
    expect(invocations.length).toBeGreaterThan(actionUses.length);
    expect(invocations.flatMap(checkInvocation)).toEqual([]);
  });
});

describe('the invocation checker', () => {
  const check = (command: string, line: string, complete = true) =>
    checkInvocation({ source: 'test', command, args: line.split(' ').filter(Boolean), complete });

  it('accepts documented flags, values and positionals', () => {
    expect(check('apply', '--auto-approve --undo-out undo.json --app shop --no-color')).toEqual([]);
    expect(check('scripts diff', 'old.json new.json --fail-on=new,unapproved --format markdown')).toEqual([]);
    expect(check('scripts report', '--app-id A B --tld x.example --format csv')).toEqual([]);
  });

  it('rejects unknown flags, bad values, missing values and wrong positionals', () => {
    expect(check('plan', '--auto-approve')).toEqual(['test: botrules plan: unknown flag --auto-approve']);
    expect(check('scripts diff', 'a b --fail-on new,sometimes')).toEqual([
      'test: botrules scripts diff: --fail-on does not accept "sometimes" (one of new, risk-up, unapproved, high-risk)',
    ]);
    expect(check('apply', '--undo-out')).toEqual(['test: botrules apply: --undo-out needs a value']);
    expect(check('scripts diff', 'only-one.json')).toEqual(['test: botrules scripts diff: expects 2 positional argument(s), got 1']);
    expect(check('validate', '--detailed-exitcode=yes')).toEqual(['test: botrules validate: unknown flag --detailed-exitcode']);
  });

  it('finds invocations in prose and scripts, ignoring the name alone', () => {
    const text = 'run `botrules apply --plan undo.json` here\nbotrules drift: shop\nnpx botrules scripts diff a b --fail-on new';
    expect(invocationsInText('f', text)).toEqual([
      { source: 'f:1', command: 'apply', args: ['--plan', 'undo.json'], complete: false },
      { source: 'f:3', command: 'scripts diff', args: ['a', 'b', '--fail-on', 'new'], complete: false },
    ]);
  });
});
