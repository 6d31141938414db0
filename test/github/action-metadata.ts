// Reading action.yml: actionlint lints workflows, not action metadata, so the action's steps
// are embedded in a synthetic reusable workflow whose inputs and outputs mirror the action's;
// actionlint then checks every expression (inputs.*, steps.*.outputs.*) and step as usual.
import { stringify } from 'yaml';
import type { Invocation } from './cli-surface.js';
import { tokenise } from './cli-surface.js';
import { ACTION_FILE, isMap, mapAt, readYamlFile, type StepRef, type YamlFile, type YamlMap } from './workflow-files.js';

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

/** The `command` input values the action accepts, mapped to the CLI command each runs (from its `case`). */
export function actionCommandMapping(action: YamlFile): Map<string, string> {
  const mapping = new Map<string, string>();
  for (const step of actionSteps(action)) {
    if (typeof step.run !== 'string') continue;
    for (const match of step.run.matchAll(/^\s*([\w| -]+)\)\s*command=\(([^)]*)\)\s*;;/gm)) {
      const target = (match[2] ?? '').trim();
      for (const name of (match[1] ?? '').split('|').map((n) => n.trim())) {
        mapping.set(name, target === '"$INPUT_COMMAND"' ? name : target.replace(/\s+/g, ' '));
      }
    }
  }
  return mapping;
}

/** The flags the action adds to every plan (its `plan_flags=(…)` array). */
export function actionPlanFlags(action: YamlFile): string[] {
  for (const step of actionSteps(action)) {
    const match = typeof step.run === 'string' ? /plan_flags=\(([^)]*)\)/.exec(step.run) : null;
    if (match) return tokenise(match[1] ?? '');
  }
  return [];
}

/** The command line a workflow step running the action amounts to. */
export function actionInvocation(ref: StepRef, action: YamlFile): Invocation {
  const inputs = mapAt(ref.step, 'with');
  const text = (name: string) => (typeof inputs[name] === 'string' || typeof inputs[name] === 'number' ? String(inputs[name]) : '');
  const commandInput = text('command');
  const command = actionCommandMapping(action).get(commandInput) ?? `(command input "${commandInput}")`;
  const args: string[] = [];
  if (text('config')) args.push('--config', ...tokenise(text('config')));
  if (text('app')) args.push('--app', ...tokenise(text('app')));
  if (command === 'plan') args.push(...actionPlanFlags(action));
  else if (text('format')) args.push('--format', text('format'));
  args.push(...tokenise(text('args')));
  return { source: `${ref.file} ${ref.where}`, command, args, complete: true };
}
