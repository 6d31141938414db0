// Runs the "Run botrules" step of action.yml the way the runner does (bash -eo pipefail, inputs
// through env, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files), with a recording stand-in for the
// CLI where the action expects its bundled CLI (<action path>/dist-action/botrules.mjs). What
// is under test is the action's shell: how it builds
// the command line, maps exit codes, and writes outputs and the summary.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../helpers/temp.js';
import { actionInputs, actionSteps, readAction } from './action-metadata.js';
import { isMap } from './workflow-files.js';

/**
 * Records its arguments and the BOTRULES_TOKEN* variables it received, writes the plan file it
 * is asked for, prints FAKE_STDOUT and exits with FAKE_EXIT.
 */
const RECORDING_CLI = `
import fs from 'node:fs';
const args = process.argv.slice(2);
const tokens = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('BOTRULES_TOKEN')));
fs.writeFileSync(process.env.FAKE_RECORD_FILE, JSON.stringify({ args, tokens }));
const out = args.indexOf('--out');
if (args[0] === 'plan' && out >= 0) fs.writeFileSync(args[out + 1], '{"formatVersion":1}');
process.stdout.write(process.env.FAKE_STDOUT || '');
process.exitCode = Number(process.env.FAKE_EXIT || '0');
`;

export interface StepRun {
  /** The step's exit status. */
  status: number | null;
  stdout: string;
  /** The arguments botrules received; undefined when it was not started. */
  argv: string[] | undefined;
  /** The BOTRULES_TOKEN* variables botrules received. */
  tokens: Record<string, string> | undefined;
  outputs: Record<string, string>;
  summary: string;
  /** The directory the step ran in. */
  cwd: string;
}

export interface StepRunOptions {
  inputs: Record<string, string>;
  cliExitCode?: number;
  cliStdout?: string;
  /** The calling step's env (e.g. BOTRULES_TOKEN from a secret). */
  env?: Record<string, string>;
  /** Leave out the bundled CLI, as in a commit that is not a release. */
  withoutBundle?: boolean;
}

export function runActionStep(options: StepRunOptions): StepRun {
  const action = readAction();
  const step = actionSteps(action).find((s) => s.id === 'run');
  if (!step || typeof step.run !== 'string') throw new Error('action.yml has no step with id "run"');

  const root = tempDir('botrules-action-');
  const actionPath = path.join(root, 'action');
  mkdirSync(path.join(actionPath, 'dist-action'), { recursive: true });
  if (options.withoutBundle !== true) writeFileSync(path.join(actionPath, 'dist-action', 'botrules.mjs'), RECORDING_CLI);
  const cwd = path.join(root, 'workspace');
  const runnerTemp = path.join(root, 'runner-temp');
  mkdirSync(cwd);
  mkdirSync(runnerTemp);
  const files = { record: path.join(root, 'record.json'), output: path.join(root, 'output'), summary: path.join(root, 'summary'), script: path.join(root, 'step.sh') };
  writeFileSync(files.output, '');
  writeFileSync(files.summary, '');
  writeFileSync(files.script, step.run);

  const inputs = withDefaults(options.inputs);
  const stepEnv = Object.fromEntries(
    Object.entries(isMap(step.env) ? step.env : {}).map(([name, value]) => [name, evaluate(String(value), inputs, actionPath)]),
  );
  const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', files.script], {
    cwd,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: root,
      RUNNER_TEMP: runnerTemp,
      GITHUB_OUTPUT: files.output,
      GITHUB_STEP_SUMMARY: files.summary,
      FAKE_RECORD_FILE: files.record,
      FAKE_EXIT: String(options.cliExitCode ?? 0),
      FAKE_STDOUT: options.cliStdout ?? '',
      ...options.env,
      ...stepEnv,
    },
  });
  const record = existsSync(files.record)
    ? (JSON.parse(readFileSync(files.record, 'utf8')) as { args: string[]; tokens: Record<string, string> })
    : undefined;
  return {
    status: result.status,
    stdout: result.stdout,
    argv: record?.args,
    tokens: record?.tokens,
    outputs: parseOutputs(readFileSync(files.output, 'utf8')),
    summary: readFileSync(files.summary, 'utf8'),
    cwd,
  };
}

function withDefaults(given: Record<string, string>): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const [name, input] of Object.entries(actionInputs(readAction()))) {
    inputs[name] = given[name] ?? (isMap(input) && typeof input.default === 'string' ? input.default : '');
  }
  return inputs;
}

/** The two expression forms the step's env may use; anything else is a test failure to look at. */
function evaluate(value: string, inputs: Record<string, string>, actionPath: string): string {
  const match = /^\$\{\{\s*(inputs\.([\w-]+)|github\.action_path)\s*\}\}$/.exec(value);
  if (!match) throw new Error(`unexpected env value in the action's run step: ${value}`);
  return match[2] !== undefined ? (inputs[match[2]] ?? '') : actionPath;
}

function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) outputs[line.slice(0, at)] = line.slice(at + 1);
  }
  return outputs;
}
