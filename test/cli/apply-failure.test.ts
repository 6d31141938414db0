// When the service misbehaves: a PATCH that keeps failing (partial failure, report, re-run
// convergence, undo of what was applied), a server that swaps instead of moving (verify and
// correct, or fail naming what differs), and concurrency of field-only updates.
import { lettered, liveFields, names, patches } from '../apply/fixtures.js';
import type { RequestLogEntry } from '../../src/emulator/index.js';
import type { NormalRule, Rule } from '../../src/semantics/model.js';
import { emulatorProjectOnDemand } from '../helpers/emulator-project.js';

const { start, current: project } = emulatorProjectOnDemand();

const run = (argv: string[]) => project.run(argv);

/** Every rule but A gets a new description: field-only updates only. */
function described(count: number, text: string): Rule[] {
  return lettered(count).map((r) => (r.name === 'A' ? r : { ...r, description: `${text} ${r.name}` }));
}

function ruleIdOf(name: string): string {
  return project.emulator.rules().find((r) => r.name === name)?.ruleId ?? '';
}

describe('partial failure', () => {
  it('reports applied / failed / not attempted, exits 1, and a re-run converges', async () => {
    await start({ seedRules: lettered(6) });
    const original = project.emulator.rules();
    // Retry-After 0 keeps the client's retries quick; the fault never stops.
    project.emulator.addFault(`status=503,retry-after=0,method=PATCH,path=/api/v2/botProtection/customRules/${ruleIdOf('D')}`);
    await project.writeRules(described(6, 'new'));
    const failed = await run(['apply', '--auto-approve', '--concurrency', '1', '--undo-out', 'undo.json']);
    expect(failed.code).toBe(1);
    const lines = failed.stdout.split('\n');
    expect(lines).toContain('✓ updated "B" (description)');
    expect(lines).toContain('✓ updated "C" (description)');
    expect(lines.find((l) => l.startsWith('✗ failed: updated "D" (description): '))).toBeDefined();
    expect(lines).toContain('- not attempted: updated "E" (description)');
    expect(lines).toContain('- not attempted: updated "F" (description)');
    expect(failed.stdout).not.toContain('Verified');
    expect(failed.stderr).toContain('apply failed: 1 PATCH request failed, 2 applied, 2 not attempted (app default)');
    // The client retried the failing PATCH; nothing after it was sent.
    const sentTo = patches(project.emulator).map((e) => e.path.split('/').pop());
    expect(sentTo.filter((id) => id === ruleIdOf('D')).length).toBeGreaterThan(1);
    expect(sentTo).not.toContain(ruleIdOf('E'));

    // The undo plan restores what was applied (B and C), from the live rules after the failure.
    project.emulator.clearFaults();
    const undone = await run(['apply', '--plan', 'undo.json', '--auto-approve']);
    expect(undone.code).toBe(0);
    expect(project.emulator.rules()).toEqual(original);

    const rerun = await run(['apply', '--auto-approve']);
    expect(rerun.code).toBe(0);
    expect(liveFields(project.emulator)).toEqual(described(6, 'new'));
    expect((await run(['plan', '--detailed-exitcode'])).code).toBe(0);
  });
});

describe('verify and correct', () => {
  it('corrects the order on a server that swaps instead of moving', async () => {
    await start({ seedRules: lettered(5), moveSemantics: 'swap' });
    const [a, b, c, d, e] = lettered(5) as [NormalRule, NormalRule, NormalRule, NormalRule, NormalRule];
    await project.writeRules([c, a, b, d, e]);
    const result = await run(['apply', '--auto-approve']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Correction pass 1: the live rules differed from the rule files after the previous pass.');
    expect(result.stdout).toContain('Verified: live rules of app default match the rule files.');
    expect(names(project.emulator.rules())).toEqual(['C', 'A', 'B', 'D', 'E']);
  });

  it('gives up after two correction passes, naming what still differs', async () => {
    await start({ seedRules: lettered(5), moveSemantics: 'swap' });
    const [a, b, c, d, e] = lettered(5) as [NormalRule, NormalRule, NormalRule, NormalRule, NormalRule];
    await project.writeRules([e, a, b, c, d]);
    const result = await run(['apply', '--auto-approve']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Correction pass 2:');
    expect(result.stdout).not.toContain('Correction pass 3');
    expect(result.stderr).toContain('the live rules still differ from the rule files after 2 correction passes');
    expect(result.stderr).toMatch(/^app default: "[A-E]" is at position \d, expected \d$/m);
    // One move per pass: the plan's, then one per correction.
    expect(patches(project.emulator)).toHaveLength(3);
  });
});

/**
 * True when some PATCH arrived well before the one before it was answered. The log has
 * millisecond resolution, and a loaded machine may log a request as finished a little after
 * the client had its answer, so a margin keeps back-to-back requests from counting; with 40 ms
 * of latency, concurrent requests overlap by far more.
 */
function overlapping(entries: readonly RequestLogEntry[]): boolean {
  const marginMs = 20;
  const spans = entries.map((e) => ({ start: Date.parse(e.time), end: Date.parse(e.time) + e.ms })).sort((x, y) => x.start - y.start);
  return spans.some((span, i) => i > 0 && span.start < (spans[i - 1]?.end ?? 0) - marginMs);
}

describe('concurrency', () => {
  it.each([1, 8])('with --concurrency %i field-only updates reach the same result', async (concurrency) => {
    await start({ seedRules: lettered(9), latencyMs: 40 });
    await project.writeRules(described(9, `c${concurrency}`));
    const result = await run(['apply', '--auto-approve', '--concurrency', String(concurrency)]);
    expect(result.code).toBe(0);
    expect(liveFields(project.emulator)).toEqual(described(9, `c${concurrency}`));
    expect(patches(project.emulator)).toHaveLength(8);
    expect(overlapping(patches(project.emulator))).toBe(concurrency > 1);
  });

  it('rejects a concurrency below 1', async () => {
    await start({ seedRules: lettered(2) });
    const result = await run(['apply', '--auto-approve', '--concurrency', '0']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--concurrency must be a whole number of at least 1');
    expect(project.emulator.log).toHaveLength(0);
  });
});
