// import --update against random console edits: the files it writes plan clean against the
// live rules, keep every comment of every rule that still exists, leave every unchanged rule
// block byte for byte, and change only lines of rules that changed, moved or went away.
import fc from 'fast-check';
import { diffLines } from 'diff';
import { updateRuleFiles, type RuleFileText } from '../../src/import/update/index.js';
import { planApp } from '../../src/plan/planner.js';
import type { DeclaredRule, Leaf, LiveRule } from '../../src/semantics/model.js';
import { readRuleFileText, leafEdit, shuffle } from './update-support.js';
import { live as liveRule } from '../helpers/rules.js';

interface Spec {
  id: string;
  name: string;
  paused: boolean;
  leaves: string[];
}

function ruleText(spec: Spec, described: boolean): string {
  const lines = [
    `  # comment-${spec.id}-above`,
    `  - name: ${spec.name}   # comment-${spec.id}-eol`,
    `    ruleId: ${spec.id}`,
    ...(described ? [`    description: about ${spec.name}`] : []),
    ...(spec.paused ? ['    status: paused'] : []),
    '    actions: [allow]',
    '    conditions:',
    `      # comment-${spec.id}-conditions`,
    '      operator: $or',
    '      children:',
    '        - operator: $and',
    '          children:',
    `            # comment-${spec.id}-leaves`,
    ...spec.leaves.map((v) => `            - { conditionType: path, operator: $eq, value: /${v} }`),
  ];
  return `${lines.join('\n')}\n`;
}

const leafOf = (v: string): Leaf => ({ conditionType: 'path', operator: '$eq', value: `/${v}` });

function liveOf(spec: Spec, described: boolean, priority: number): LiveRule {
  return liveRule({
    ruleId: spec.id, name: spec.name, priority, description: described ? `about ${spec.name}` : '',
    status: spec.paused ? 'paused' : 'active', actions: ['allow'],
    conditions: { operator: '$or', children: [{ operator: '$and', children: spec.leaves.map(leafOf) }] },
  });
}

const specs = fc.uniqueArray(fc.integer({ min: 0, max: 99 }), { minLength: 1, maxLength: 7 }).chain((ids) =>
  fc.tuple(
    fc.constant(ids),
    fc.array(fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1, maxLength: 3 }), { minLength: ids.length, maxLength: ids.length }),
    fc.array(fc.boolean(), { minLength: ids.length, maxLength: ids.length }),
    fc.integer({ min: 1, max: 3 }),
  ),
);

const edit = fc.record({
  rename: fc.boolean(), pause: fc.boolean(), leaf: fc.constantFrom('keep', 'add', 'drop', 'swap'),
  remove: fc.boolean(), described: fc.boolean(),
});

describe('import --update properties', () => {
  it('plans clean, keeps comments and unchanged blocks, and changes only changed rules', () => {
    fc.assert(
      fc.property(specs, fc.array(edit, { minLength: 7, maxLength: 7 }), fc.integer({ min: 0, max: 3 }), fc.integer(), ([ids, leaves, described, fileCount], edits, added, seed) => {
        const rules: Spec[] = ids.map((n, i) => ({ id: `r${n}`, name: `Rule ${n}`, paused: false, leaves: leaves[i] as string[] }));
        const { files, blocksOf } = split(rules, described, fileCount);
        const declared: DeclaredRule[] = files.flatMap((f) => readRuleFileText(f));

        // The console's edits.
        const liveSpecs: { spec: Spec; described: boolean; changed: boolean }[] = [];
        rules.forEach((spec, i) => {
          const e = edits[i] as (typeof edits)[number];
          if (e.remove && rules.length > 1) return;
          const next: Spec = { ...spec, name: e.rename ? `${spec.name} v2` : spec.name, paused: e.pause, leaves: leafEdit(spec.leaves, e.leaf) };
          const isDescribed = e.described ? !described[i] : (described[i] as boolean);
          liveSpecs.push({ spec: next, described: isDescribed, changed: JSON.stringify(next) !== JSON.stringify(spec) || isDescribed !== described[i] });
        });
        for (let k = 0; k < added; k += 1) liveSpecs.push({ spec: { id: `new${k}`, name: `New ${k}`, paused: false, leaves: ['z'] }, described: false, changed: true });
        const order = shuffle(liveSpecs, seed);
        const live = order.map((s, priority) => liveOf(s.spec, s.described, priority));

        const result = updateRuleFiles({ files, declared, live, schema: '../node_modules/botrules/schemas/rules.schema.json' });
        const after = result.changes.reduce((map, c) => map.set(c.rel, c.after), new Map<string, string | undefined>(files.map((f) => [f.rel, f.text])));
        const written = [...after.entries()].filter(([, text]) => text !== undefined).sort(([a], [b]) => (a < b ? -1 : 1)).map(([rel, text]) => ({ rel, shown: rel, text: text as string }));

        // (a) plans clean
        const redeclared = written.flatMap((f) => readRuleFileText(f));
        const plan = planApp({ app: 'default', declared: redeclared, live, unmanaged: 'keep' });
        expect(plan.problems).toEqual([]);
        expect(plan.plan.steps).toEqual([]);
        expect(plan.plan.unmanaged).toEqual([]);

        // (b) every comment of every surviving rule is still there
        const all = written.map((f) => f.text).join('');
        for (const s of order) {
          if (s.spec.id.startsWith('new')) continue;
          for (const where of ['above', 'eol', 'conditions', 'leaves']) expect(all).toContain(`comment-${s.spec.id}-${where}`);
        }

        // (c) unchanged rule blocks are byte for byte as they were
        const blocks = new Map([...blocksOf.values()].flat().map((b) => [b.id, b.text] as const));
        for (const s of order) if (!s.changed) expect(all).toContain(blocks.get(s.spec.id) ?? '');

        // (d) only lines of changed, moved or removed rules change
        const touched = new Set([...result.edited.map((e) => e.rule.ruleId), ...result.placements.map((p) => p.rule.ruleId), ...result.gone.map((r) => r.ruleId)]);
        for (const file of files) {
          if (after.get(file.rel) === undefined) {
            // A file is removed only when none of its rules stayed in it.
            for (const b of blocksOf.get(file.rel) ?? []) expect(touched.has(b.id)).toBe(true);
            continue;
          }
          // A line diff may align a moved block either way, so it is measured by size: no more lines
          // removed than the touched rules' blocks hold, and the header above the rules untouched.
          const removed = diffLines(file.text, after.get(file.rel) ?? '').filter((part) => part.removed).reduce((n, part) => n + (part.count ?? 0), 0);
          // Each touched block with the blank line that separates it from the one before.
          const touchedLines = (blocksOf.get(file.rel) ?? []).filter((b) => touched.has(b.id)).reduce((n, b) => n + b.text.split('\n').length, 0);
          expect(removed).toBeLessThanOrEqual(touchedLines);
          expect(after.get(file.rel)?.startsWith(`# header of ${file.rel}\nrules:\n`)).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });
});

/** The rules split into files, and each file's rule blocks (a rule's lines, its comments included). */
function split(rules: Spec[], described: boolean[], count: number): { files: RuleFileText[]; blocksOf: Map<string, { id: string; text: string }[]> } {
  const files: RuleFileText[] = [];
  const blocksOf = new Map<string, { id: string; text: string }[]>();
  const per = Math.ceil(rules.length / count);
  for (let f = 0; f * per < rules.length; f += 1) {
    const blocks = rules.slice(f * per, (f + 1) * per).map((spec, i) => ({ id: spec.id, text: ruleText(spec, described[f * per + i] as boolean) }));
    const rel = `${String((f + 1) * 10).padStart(3, '0')}-part.yaml`;
    files.push({ rel, shown: rel, text: `# header of ${rel}\nrules:\n${blocks.map((b) => b.text).join('\n')}` });
    blocksOf.set(rel, blocks);
  }
  return { files, blocksOf };
}
