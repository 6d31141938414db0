// Policies in `botrules plan` (docs/behaviour.md, "Policies"): proved over the rules as apply
// would leave them, each violation said to be new or already live, first in text and in the
// Markdown comment, in the JSON plan, and exit 1 at level error.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { NormalRule } from '../../src/semantics/model.js';
import { parsePlan, parsePlanText } from '../../src/plan/file-format.js';
import { emulatorProjectForEachTest } from '../helpers/emulator-project.js';
import { normal } from '../helpers/rules.js';

const blockCurl = normal({ name: 'Block curl', actions: ['hardBlock'], conditions: { operator: '$or', children: [{ operator: '$and', children: [{ conditionType: 'userAgent', operator: '$contains', value: 'curl' }] }] } });
const allowHealth = normal({
  name: 'Allow health', actions: ['allow'],
  conditions: { operator: '$and', children: [{ operator: '$and', children: [{ conditionType: 'path', operator: '$startsWith', value: '/health' }, { conditionType: 'socketIps', operator: '$in', value: ['10.0.0.0/8'] }] }] },
});

const POLICY = [
  'policies:',
  '  - name: Internal health checks are allowed',
  '    level: LEVEL',
  '    requests:',
  '      operator: $and',
  '      children:',
  '        - operator: $and',
  '          children:',
  '            - { conditionType: path, operator: $startsWith, value: /health }',
  '            - { conditionType: socketIps, operator: $in, value: [10.0.0.0/8] }',
  '    expect:',
  '      outcome: [allow]',
  '',
].join('\n');

const project = emulatorProjectForEachTest({ seedRules: [allowHealth, blockCurl] });

async function declare(rules: readonly NormalRule[], level = 'error'): Promise<void> {
  await project.writeRules(rules);
  await mkdir(path.join(project.dir, 'policies'), { recursive: true });
  await writeFile(path.join(project.dir, 'policies', 'health.yaml'), POLICY.replace('LEVEL', level));
}

describe('plan: policies', () => {
  it('holds for the live order kept, and says so', async () => {
    await declare([allowHealth, blockCurl]);
    const result = await project.run(['plan']);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('Policies: 1 check, 1 hold, 0 violated, 0 unchecked');
  });

  it('fails a plan that breaks an error-level policy, first in the output, saying the live rules hold it', async () => {
    await declare([blockCurl, allowHealth]);
    const result = await project.run(['plan']);
    expect(result.code).toBe(1);
    const [counts, line] = result.stdout.split('\n');
    expect(counts).toBe('Policies: 1 check, 0 hold, 1 violated, 0 unchecked');
    expect(line).toMatch(/^ {2}policies\/health\.yaml:2:5: error: Policy violated: "Internal health checks are allowed" for app default: for example the request path "\/health\w*", .*userAgent "curl".* gets block from rule "Block curl" \(rules\/\S+:2:5\).*\(the live rules hold it: this plan breaks it\) \[policy\]$/);
    expect(result.stderr).toContain('1 error-level policy is not proved to hold for the rules as apply would leave them');
  });

  it('puts the violation at the top of the Markdown plan, and in the JSON plan with the live verdict', async () => {
    await declare([blockCurl, allowHealth]);
    const markdown = await project.run(['plan', '--format', 'markdown']);
    const lines = markdown.stdout.split('\n');
    expect(lines[0]).toBe('> [!CAUTION]');
    expect(lines[1]).toMatch(/^> Policy violated: &quot;Internal health checks are allowed&quot; for app default: for example the request .* \(`policies\/health\.yaml:2`\)$/);
    const json = await project.run(['plan', '--format', 'json']);
    const plan = JSON.parse(json.stdout) as { policies: { policy: string; verdict: string; live: string; rule: { name: string } }[] };
    expect(plan.policies.map((one) => [one.policy, one.verdict, one.live, one.rule.name])).toEqual([['Internal health checks are allowed', 'violated', 'holds', 'Block curl'], ['operator-matrix', 'unchecked', undefined, 'Allow health']]);
    // A saved plan carries them as a review aid, and reads back (apply --plan ignores them).
    expect(() => parsePlan(parsePlanText(json.stdout, 'plan.json'), 'plan.json')).not.toThrow();
  });

  it('says a violation is already live, and exits 0 at level warning', async () => {
    project.emulator.replaceRules(project.emulator.rules().reverse().map((rule, priority) => ({ ...rule, priority })));
    await declare([blockCurl, allowHealth], 'warning');
    const result = await project.run(['plan']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('(the live rules already violate it: not new in this plan) [policy]');
  });

  it('refuses a decidedBy that names no rule at its line, before any request', async () => {
    await declare([allowHealth, blockCurl]);
    await writeFile(path.join(project.dir, 'policies', 'health.yaml'), POLICY.replace('LEVEL', 'error').replace('      outcome: [allow]', '      decidedBy: Allow everything'));
    const result = await project.run(['plan']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('policies/health.yaml:12:18: decidedBy "Allow everything" names no rule of app default');
    expect(project.emulator.log).toEqual([]);
  });
});
