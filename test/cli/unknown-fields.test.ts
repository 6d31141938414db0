// Fields botrules does not know are data, not noise (docs/behaviour.md, "Unknown fields"),
// end to end through the real binary against the emulator: a live rule carrying fields the
// console added round-trips through import and a clean plan, keeps them on the server when
// another part of the same rule changes, and a change of the leaf that carries one is named
// in every plan format and refused by apply unless --force.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { patches, rule } from '../apply/fixtures.js';
import type { Rule } from '../../src/semantics/model.js';
import { emulatorProjectForEachTest } from '../helpers/emulator-project.js';

/** Rule A as the console left it: a rule field, a group field and a leaf field botrules does not know. */
function consoleRule(): Rule {
  const base = rule('A');
  const [group] = base.conditions.children;
  const [agent, ips] = group?.children ?? [];
  return {
    ...base,
    labels: ['edge'],
    conditions: {
      ...base.conditions,
      children: [{ ...group, label: 'bots', children: [{ ...agent, caseSensitive: true }, ips] }],
    },
  } as unknown as Rule;
}

const project = emulatorProjectForEachTest({ seedRules: [consoleRule(), rule('B')] });

const run = (argv: string[]) => project.run(argv);
const fileOfA = () => path.join(project.rulesDir, '010-a.yaml');

async function editA(from: string, to: string): Promise<void> {
  const text = await readFile(fileOfA(), 'utf8');
  expect(text).toContain(from);
  await writeFile(fileOfA(), text.replace(from, to));
}

describe('fields botrules does not know', () => {
  it('round-trip through import, a clean plan, a change elsewhere in the rule, and a change of their own leaf', async () => {
    expect(await run(['import'])).toMatchObject({ code: 0, stderr: '' });
    const imported = (await readFile(fileOfA(), 'utf8')).split('\n');
    expect(imported).toContain('            - { conditionType: userAgent, operator: $contains, value: A, caseSensitive: true }');
    expect(imported).toContain('          label: bots');
    expect(imported.slice(-4)).toEqual(['          label: bots', '    labels:', '      - edge', '']);

    const validated = await run(['validate']);
    expect(validated.code).toBe(0);
    const known = 'is a field botrules does not know; it is kept as it is (never compared, never sent on its own)';
    expect(validated.stderr.split('\n').filter((line) => line.includes('warning:'))).toEqual([
      `rules/010-a.yaml:13:74: warning: rule "A": "caseSensitive" in condition ${known}`,
      `rules/010-a.yaml:15:11: warning: rule "A": "label" in group ${known}`,
      `rules/010-a.yaml:16:5: warning: rule "A": "labels" in rule ${known}`,
    ]);
    expect((await run(['plan', '--detailed-exitcode'])).code).toBe(0);

    // A change elsewhere in the same rule: conditions is sent whole, and carries every field.
    await editA('value: [ 203.0.113.0/24 ]', 'value: [ 198.51.100.0/24 ]');
    const elsewhere = await run(['plan', '--detailed-exitcode']);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stdout).not.toContain('does not know');
    expect(await run(['apply', '--auto-approve'])).toMatchObject({ code: 0 });
    const [kept] = project.emulator.rules();
    expect(kept).toMatchObject({ name: 'A', labels: ['edge'] });
    expect(kept?.conditions.children).toEqual([
      {
        operator: '$and',
        label: 'bots',
        children: [
          { conditionType: 'userAgent', operator: '$contains', value: 'A', caseSensitive: true },
          { conditionType: 'socketIps', operator: '$in', value: ['198.51.100.0/24'] },
        ],
      },
    ]);
    expect((await run(['plan', '--detailed-exitcode'])).code).toBe(0);

    // A change of the leaf that carries one: named in every format, refused without --force.
    await editA('value: A, caseSensitive: true', 'value: A2, caseSensitive: true');
    const own = await run(['plan', '--detailed-exitcode']);
    expect(own.code).toBe(2);
    const dropLine = '    ! removes "caseSensitive" of conditions.children[0].children[0], a field botrules does not know (its leaf or group is replaced; apply needs --force)';
    expect(own.stdout.split('\n')).toContain(dropLine);
    expect(own.stdout.split('\n')).toContain(`~ "A" (${kept?.ruleId}): updates conditions; removes 1 field botrules does not know`);
    const json = JSON.parse((await run(['plan', '--format', 'json'])).stdout) as { apps: { steps: { dropsUnknown?: unknown }[] }[] };
    expect(json.apps[0]?.steps[0]?.dropsUnknown).toEqual([{ path: 'conditions.children[0].children[0]', field: 'caseSensitive' }]);
    const markdown = (await run(['plan', '--format', 'markdown'])).stdout.split('\n');
    // Quotes are HTML entities in Markdown (src/render/markdown.ts): GitHub shows them as quotes.
    expect(markdown).toContain(
      '! removes &quot;caseSensitive&quot; of conditions.children[0].children[0], a field botrules does not know (its leaf or group is replaced; apply needs --force)',
    );

    const sentBefore = patches(project.emulator).length;
    const refused = await run(['apply', '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr.split('\n')).toEqual([
      `error: plan for app default would remove field "caseSensitive" (conditions.children[0].children[0]) of rule "A" (${kept?.ruleId}), ` +
        'which botrules does not know; review it and use --force to apply anyway; nothing was sent',
      '',
    ]);
    expect(patches(project.emulator)).toHaveLength(sentBefore);

    expect(await run(['apply', '--auto-approve', '--force'])).toMatchObject({ code: 0 });
    const [replaced] = project.emulator.rules();
    expect(replaced?.conditions.children[0]?.children[0]).toEqual({ conditionType: 'userAgent', operator: '$contains', value: 'A2', caseSensitive: true });
  });
});
