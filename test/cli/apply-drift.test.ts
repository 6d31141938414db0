// Apply sends only the reviewed plan (docs/behaviour.md, "Verify, correct, and drift"). An
// operator's console edit made while an apply runs, and a server whose verifying LIST shows
// rules the plan never touched changed, are reported by rule and field and never overwritten;
// no apply sends more PATCH requests than its change limit, corrections included.
import { type CliResult } from '../helpers/cli.js';
import { lettered, names, patches } from '../apply/fixtures.js';
import type { ListedRule } from '../../src/emulator/state.js';
import type { NormalRule } from '../../src/semantics/model.js';
import { emulatorProjectOnDemand } from '../helpers/emulator-project.js';

const { start, current: project } = emulatorProjectOnDemand();

const run = (argv: string[]): Promise<CliResult> => project.run(argv);

/** Resolves once the emulator has answered `count` PATCH requests. */
async function afterPatches(count: number): Promise<void> {
  while (patches(project.emulator).length < count) await new Promise((resolve) => setTimeout(resolve, 2));
}

/** Edits live rules as an operator would in the console (the emulator's state, not its API). */
function consoleEdit(edit: (rule: ListedRule) => ListedRule): void {
  project.emulator.replaceRules(project.emulator.rules().map((rule) => {
    const { priority: _priority, ...fields } = edit(rule);
    return fields;
  }));
}

const stderrLines = (result: CliResult): string[] => result.stderr.split('\n');

describe('a console edit made during the apply', () => {
  it('is reported by rule and field, not reverted, and only the plan is sent', async () => {
    // 8 managed rules get a new description; 10 more are unmanaged (policy keep).
    await start({ seedRules: lettered(18), latencyMs: 60 });
    const managed = lettered(8).map((r): NormalRule => ({ ...r, description: `reviewed ${r.name}` }));
    await project.writeRules(managed);
    const applying = run(['apply', '--auto-approve', '--concurrency', '1', '--max-changes', '8']);
    // An incident: the operator pauses unmanaged rule K while the apply runs.
    await afterPatches(2);
    consoleEdit((rule) => (rule.name === 'K' ? { ...rule, status: 'paused' } : rule));
    const result = await applying;

    expect(result.code).toBe(1);
    expect(patches(project.emulator)).toHaveLength(8);
    expect(project.emulator.rules().find((r) => r.name === 'K')?.status).toBe('paused');
    const k = project.emulator.rules().find((r) => r.name === 'K');
    expect(stderrLines(result)).toEqual([
      'error: the live rules differ from the rule files after the apply: 1 difference that the plan did not make ' +
        '(changed by someone else during the apply, or not stored by the service); botrules did not overwrite them:',
      `app default: "K" (${k?.ruleId}): status differs from the plan's result`,
      'Nothing more was sent. Check these rules in the console, then run botrules plan to see what the next apply would do.',
      '',
    ]);
    expect(result.stdout.split('\n')).toContain('✓ updated "A" (description)');
    expect(result.stdout).not.toContain('Apply complete');
    expect(result.stdout).not.toContain('Verified');
  });
});

describe('a server whose verifying LIST shows rules the plan never touched changed', () => {
  it('sends no more than --max-changes 1 and names every drifted rule', async () => {
    await start({ seedRules: lettered(26).concat(lettered(5).map((r) => ({ ...r, name: `Z${r.name}` }))), latencyMs: 150 });
    const [first] = lettered(1) as [NormalRule];
    await project.writeRules([{ ...first, description: 'reviewed' }]);
    const applying = run(['apply', '--auto-approve', '--max-changes', '1']);
    // Before the verifying LIST is answered, every unmanaged rule shows up paused.
    await afterPatches(1);
    consoleEdit((rule) => (rule.name === 'A' ? rule : { ...rule, status: 'paused' }));
    const result = await applying;

    expect(result.code).toBe(1);
    expect(patches(project.emulator)).toHaveLength(1);
    const drifted = stderrLines(result).filter((line) => line.startsWith('app default: '));
    expect(drifted).toHaveLength(30);
    const b = project.emulator.rules().find((r) => r.name === 'B');
    expect(drifted).toContain(`app default: "B" (${b?.ruleId}): status differs from the plan's result`);
    expect(stderrLines(result)[0]).toBe(
      'error: the live rules differ from the rule files after the apply: 30 differences that the plan did not make ' +
        '(changed by someone else during the apply, or not stored by the service); botrules did not overwrite them:',
    );
    expect(project.emulator.rules().filter((r) => r.status === 'paused')).toHaveLength(30);
  });
});

describe('corrections of the order', () => {
  it('count against the change limit: with --max-changes 1 a swapping server is not corrected', async () => {
    await start({ seedRules: lettered(5), moveSemantics: 'swap' });
    const [a, b, c, d, e] = lettered(5) as [NormalRule, NormalRule, NormalRule, NormalRule, NormalRule];
    await project.writeRules([c, a, b, d, e]);
    const result = await run(['apply', '--auto-approve', '--max-changes', '1']);
    expect(result.code).toBe(1);
    expect(patches(project.emulator)).toHaveLength(1);
    expect(stderrLines(result)[0]).toBe(
      'error: the live rules still differ from the rule files: correcting would take 1 more PATCH request, ' +
        "more than the change limit leaves (0) (the service's priority semantics may not be list-move):",
    );
    expect(stderrLines(result)).toContain('app default: "A" is at position 3, expected 2');
    expect(names(project.emulator.rules())).toEqual(['C', 'B', 'A', 'D', 'E']);
  });

  it('a rule dragged in the console outside the positions the plan moved is drift, not corrected', async () => {
    await start({ seedRules: lettered(8), latencyMs: 80 });
    const [a, b, ...rest] = lettered(8) as [NormalRule, NormalRule, ...NormalRule[]];
    await project.writeRules([b, a, ...rest]);
    const applying = run(['apply', '--auto-approve']);
    await afterPatches(1);
    // The operator drags H above G.
    const live = project.emulator.rules();
    const order = [...live.slice(0, 6), live[7] as ListedRule, live[6] as ListedRule];
    project.emulator.replaceRules(order.map(({ priority: _p, ...fields }) => fields));
    const result = await applying;
    expect(result.code).toBe(1);
    expect(patches(project.emulator)).toHaveLength(1);
    expect(names(project.emulator.rules())).toEqual(['B', 'A', 'C', 'D', 'E', 'F', 'H', 'G']);
    expect(stderrLines(result)).toContain('app default: "G" is at position 8, expected 7');
    expect(stderrLines(result)).toContain('app default: "H" is at position 7, expected 8');
  });
});
