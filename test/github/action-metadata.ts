// Reading action.yml: actionlint lints workflows, not action metadata, so the action's steps
// are embedded in a synthetic reusable workflow whose inputs and outputs mirror the action's;
// actionlint then checks every expression (inputs.*, steps.*.outputs.*) and step as usual.
import { stringify } from 'yaml';
import { actionInvocation as commandLine } from '../../src/github/action-step.js';
import type { Invocation } from './cli-surface.js';
import { ACTION_FILE, EXPRESSION_TOKEN, isMap, mapAt, readYamlFile, type StepRef, type YamlFile, type YamlMap } from './workflow-files.js';

export function readAction(): YamlFile {
  return readYamlFile(ACTION_FILE);
}

export function actionInputs(action: YamlFile): YamlMap {
  return mapAt(action.data, 'inputs');
}

export function actionOutputs(action: YamlFile): YamlMap {
  return mapAt(action.data, 'outputs');
}

export function actionSteps(action: YamlFile): YamlMap[] {
  const steps = mapAt(action.data, 'runs').steps;
  return Array.isArray(steps) ? steps.filter(isMap) : [];
}

/** The action as a `workflow_call` workflow with one job running the action's steps. */
export function actionAsWorkflow(action: YamlFile): string {
  const inputs = Object.fromEntries(Object.keys(actionInputs(action)).map((name) => [name, { type: 'string', required: false }]));
  const outputValues = Object.entries(actionOutputs(action)).map(([name, output]) => [name, isMap(output) ? output.value : undefined]);
  const workflow = {
    name: 'action.yml as a workflow',
    on: {
      workflow_call: {
        inputs,
        outputs: Object.fromEntries(outputValues.map(([name]) => [name, { value: `\${{ jobs.action.outputs.${String(name)} }}` }])),
      },
    },
    jobs: {
      action: {
        'runs-on': 'ubuntu-latest',
        outputs: Object.fromEntries(outputValues),
        steps: actionSteps(action),
      },
    },
  };
  return stringify(workflow, { lineWidth: 0, blockQuote: 'literal' });
}

/** The command line a workflow step running the action amounts to (the action's own mapping, src/github/action-step.ts). */
export function actionInvocation(ref: StepRef): Invocation {
  const inputs = mapAt(ref.step, 'with');
  // A `${{ }}` expression is one word of unknown value, as the runner substitutes it before the action splits args.
  const text = (name: string) => (typeof inputs[name] === 'string' || typeof inputs[name] === 'number' ? String(inputs[name]).replace(/\$\{\{.*?\}\}/gs, EXPRESSION_TOKEN) : '');
  const source = `${ref.file} ${ref.where}`;
  try {
    const run = commandLine({ command: text('command'), args: text('args'), app: text('app'), config: text('config'), format: text('format'), tokenEnv: text('token-env') }, 'plan.json');
    return { source, command: run.command.join(' '), args: run.argv.slice(run.command.length), complete: true };
  } catch (err) {
    // A refused input: an invocation the checker reports, with the refusal.
    return { source, command: `(${err instanceof Error ? err.message : String(err)})`, args: [], complete: true };
  }
}
