// The default change limit through the CLI: a mistaken rules directory under policy pause
// would pause most of an app's live rules; apply refuses it without --force, naming the
// counts and the setting, and sends nothing. A configured maxChanges replaces the default.
import { emulatorProjectForEachTest } from '../helpers/emulator-project.js';
import { lettered, patches } from '../apply/fixtures.js';

const project = emulatorProjectForEachTest({ seedRules: lettered(20) });
// Only A is declared: the 19 others are unmanaged, and policy pause would pause them all.
beforeEach(() => project.writeRules(lettered(1)));

const run = (argv: string[]) => project.run(argv);

describe('the default change limit', () => {
  it('refuses to pause 19 of 20 live rules without --force, and applies with it', async () => {
    await project.writeConfig({ unmanaged: 'pause', apps: [{ name: 'default', rulesDir: 'rules' }] });
    const refused = await run(['apply', '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'error: plan for app default changes 19 of its 20 live rules (95 %), more than the default limit of 30 % (when more than 10 rules change)',
    );
    expect(refused.stderr).toContain('set maxChanges for the app in botrules.yaml, or --max-changes, to choose a limit');
    expect(patches(project.emulator)).toHaveLength(0);

    const forced = await run(['apply', '--auto-approve', '--force']);
    expect(forced.code).toBe(0);
    expect(project.emulator.rules().filter((r) => r.status === 'paused')).toHaveLength(19);
  });

  it('plan warns on stderr that apply will refuse it, and still prints the plan', async () => {
    await project.writeConfig({ unmanaged: 'pause', apps: [{ name: 'default', rulesDir: 'rules' }] });
    const planned = await run(['plan']);
    expect(planned.code).toBe(0);
    expect(planned.stdout.split('\n')[0]).toBe('Plan: 19 PATCH requests: 0 to update, 0 to move, 19 unmanaged to pause; 0 rules change position; 0 blocked; 0 not in the files, kept');
    expect(planned.stderr).toContain('warning: plan for app default changes 19 of its 20 live rules (95 %)');
    expect(planned.stderr).toContain('; apply will refuse it without --force\n');
  });

  it('a configured maxChanges replaces the default, in both directions', async () => {
    await project.writeConfig({ unmanaged: 'pause', maxChanges: 19, apps: [{ name: 'default', rulesDir: 'rules' }] });
    expect((await run(['apply', '--auto-approve', '--max-changes', '18'])).stderr).toContain('more than --max-changes 18 allows');
    expect(patches(project.emulator)).toHaveLength(0);
    expect((await run(['apply', '--auto-approve'])).code).toBe(0);
    expect(patches(project.emulator)).toHaveLength(19);
  });
});
