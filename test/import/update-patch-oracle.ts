// The oracle of `import --update` as JSON Patch (src/import/update/patch.ts): over random rule
// files — LF or CRLF, with or without a byte-order mark, leaves and actions in flow or block
// style, conditions in block or flow style, rules at three indentations, a last line with or
// without its newline, names plain, single-
// or double-quoted, leaves with a field botrules does not know —
// and random console edits, re-parsing each file the update writes deep-equals
// fast-json-patch's applyPatch of the file's operations to the file as it was; a CRLF file gets
// no bare LF and keeps its BOM; every comment of a surviving rule survives; every rule the
// console left alone is byte for byte as it was; and plan is clean afterwards. Shared by the
// fast tier (a few runs) and the slow tier (hundreds).
import fc from 'fast-check';
import jsonpatch from 'fast-json-patch';
import { parse } from 'yaml';
import { updateRuleFiles, type RuleFileText } from '../../src/import/update/index.js';
import { reindent } from '../../src/import/update/text.js';
import { planApp } from '../../src/plan/planner.js';
import type { Action, DeclaredRule, Leaf, LiveRule } from '../../src/semantics/model.js';
import { readRuleFileText, leafEdit, shuffle } from './update-support.js';
import { live as liveRule } from '../helpers/rules.js';

interface Spec {
  id: string;
  name: string;
  paused: boolean;
  described: boolean;
  action: Action;
  leaves: string[];
  /** The first leaf carries `caseSensitive: true`, a field botrules does not know. */
  flagged: boolean;
  quote: '' | "'" | '"';
}

interface Style {
  crlf: boolean;
  bom: boolean;
  flowLeaves: boolean;
  flowActions: boolean;
  /** The whole condition tree on one line (it holds no comments then). */
  flowConditions: boolean;
  /** Column of the rules' `-`. */
  dashCol: 0 | 2 | 4;
  /** The last line ends with a newline. */
  terminated: boolean;
}

function ruleLines(spec: Spec, style: Style): string[] {
  const lines = style.flowConditions ? [...ruleHead(spec, style), `    conditions: { operator: $or, children: [ { operator: $and, children: [ ${flowLeaves(spec).join(', ')} ] } ] }`] : [...ruleHead(spec, style), ...blockConditions(spec, style)];
  return lines.map((line) => (style.dashCol === 2 ? line : style.dashCol === 4 ? `  ${line}` : line.slice(2)));
}

function flowLeaves(spec: Spec): string[] {
  return spec.leaves.map((v, i) => `{ conditionType: path, operator: $eq, value: "/${v}"${spec.flagged && i === 0 ? ', caseSensitive: true' : ''} }`);
}

/** The comments a rule written in `style` holds. */
function commentsOf(style: Style): string[] {
  return style.flowConditions ? ['above', 'eol'] : ['above', 'eol', 'conditions', 'leaves'];
}

function ruleHead(spec: Spec, style: Style): string[] {
  return [
    `  # comment-${spec.id}-above`,
    `  - name: ${spec.quote}${spec.name}${spec.quote}   # comment-${spec.id}-eol`,
    `    ruleId: ${spec.id}`,
    ...(spec.described ? [`    description: "about ${spec.name}"`] : []),
    ...(spec.paused ? ['    status: paused'] : []),
    ...(style.flowActions ? [`    actions: [${spec.action}]`] : ['    actions:', `      - ${spec.action}`]),
  ];
}

function blockConditions(spec: Spec, style: Style): string[] {
  const leaf = (v: string, i: number) => {
    const flag = spec.flagged && i === 0;
    if (style.flowLeaves) return [`            - { conditionType: path, operator: $eq, value: "/${v}"${flag ? ', caseSensitive: true' : ''} }`];
    return ['            - conditionType: path', '              operator: $eq', `              value: '/${v}'`, ...(flag ? ['              caseSensitive: true'] : [])];
  };
  return [
    '    conditions:',
    `      # comment-${spec.id}-conditions`,
    '      operator: $or',
    '      children:',
    '        - operator: $and',
    '          children:',
    `            # comment-${spec.id}-leaves`,
    ...spec.leaves.flatMap((v, i) => leaf(v, i)),
  ];
}

function fileText(lines: string[], style: Style): string {
  const text = `${lines.join('\n')}${style.terminated ? '\n' : ''}`;
  return (style.bom ? '\uFEFF' : '') + (style.crlf ? text.replace(/\n/g, '\r\n') : text);
}

const leafOf = (v: string, flagged: boolean): Leaf => ({ conditionType: 'path', operator: '$eq', value: `/${v}`, ...(flagged ? { caseSensitive: true } : {}) });

function liveOf(spec: Spec, priority: number): LiveRule {
  return liveRule({
    ruleId: spec.id, name: spec.name, priority, description: spec.described ? `about ${spec.name}` : '',
    status: spec.paused ? 'paused' : 'active', actions: [spec.action],
    conditions: { operator: '$or', children: [{ operator: '$and', children: spec.leaves.map((v, i) => leafOf(v, spec.flagged && i === 0)) }] },
  });
}

const style: fc.Arbitrary<Style> = fc.record({ crlf: fc.boolean(), bom: fc.boolean(), flowLeaves: fc.boolean(), flowActions: fc.boolean(), flowConditions: fc.boolean(), dashCol: fc.constantFrom<Style['dashCol']>(0, 2, 4), terminated: fc.boolean() });
const leafSet = fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1, maxLength: 3 });
const spec = (id: number): fc.Arbitrary<Spec> =>
  fc
    .record({ paused: fc.boolean(), described: fc.boolean(), action: fc.constantFrom<Action>('allow', 'hardBlock'), leaves: leafSet, flagged: fc.boolean(), quote: fc.constantFrom<Spec['quote']>('', "'", '"') })
    .map((r) => ({ ...r, id: `r${id}`, name: `Rule ${id}` }));
const edit = fc.record({
  rename: fc.boolean(), pause: fc.boolean(), describe: fc.boolean(), act: fc.boolean(), flag: fc.boolean(),
  leaf: fc.constantFrom('keep', 'add', 'drop', 'swap'), remove: fc.boolean(),
});
const world = fc.uniqueArray(fc.integer({ min: 0, max: 99 }), { minLength: 1, maxLength: 6 }).chain((ids) =>
  fc.record({
    specs: fc.tuple(...ids.map(spec)),
    styles: fc.array(style, { minLength: 3, maxLength: 3 }),
    fileCount: fc.integer({ min: 1, max: 3 }),
    edits: fc.array(edit, { minLength: ids.length, maxLength: ids.length }),
    added: fc.integer({ min: 0, max: 2 }),
    order: fc.integer(),
  }),
);

const documentOf = (text: string | undefined): unknown => (text === undefined ? {} : (parse(text.replace(/^\uFEFF/, '')) ?? {}));

export function checkOracle(numRuns: number): void {
  fc.assert(
    fc.property(world, ({ specs, styles, fileCount, edits, added, order }) => {
      const per = Math.ceil(specs.length / fileCount);
      const files: RuleFileText[] = [];
      const blockOf = new Map<string, string>();
      const styleOf = new Map<string, Style>();
      for (let f = 0; f * per < specs.length; f += 1) {
        const fileStyle = styles[f % styles.length] as Style;
        const rules = specs.slice(f * per, (f + 1) * per);
        // Without its newline: the last rule of a file whose last line has none keeps it only while the file is unchanged.
        for (const s of rules) blockOf.set(s.id, fileText(ruleLines(s, fileStyle), { ...fileStyle, bom: false, terminated: false }));
        for (const s of rules) styleOf.set(s.id, fileStyle);
        const rel = `${String((f + 1) * 10).padStart(3, '0')}-part.yaml`;
        files.push({ rel, shown: rel, text: fileText([`# header of ${rel}`, 'rules:', ...rules.flatMap((s) => ruleLines(s, fileStyle))], fileStyle) });
      }
      const declared: DeclaredRule[] = files.flatMap((f) => readRuleFileText(f));

      const liveSpecs: { spec: Spec; changed: boolean }[] = [];
      specs.forEach((s, i) => {
        const e = edits[i] as (typeof edits)[number];
        if (e.remove && specs.length > 1) return;
        const next: Spec = {
          ...s, name: e.rename ? `${s.name} v2` : s.name, paused: e.pause ? !s.paused : s.paused, described: e.describe ? !s.described : s.described,
          action: e.act ? (s.action === 'allow' ? 'hardBlock' : 'allow') : s.action, leaves: leafEdit(s.leaves, e.leaf), flagged: e.flag ? !s.flagged : s.flagged,
        };
        liveSpecs.push({ spec: next, changed: JSON.stringify(next) !== JSON.stringify(s) });
      });
      for (let k = 0; k < added; k += 1) liveSpecs.push({ spec: { id: `new${k}`, name: `New ${k}`, paused: false, described: false, action: 'allow', leaves: ['z'], flagged: k === 1, quote: '' }, changed: true });
      const shuffled = shuffle(liveSpecs, order);
      const live = shuffled.map((s, priority) => liveOf(s.spec, priority));

      const result = updateRuleFiles({ files, declared, live, schema: '../node_modules/botrules/schemas/rules.schema.json' });
      const after = new Map<string, string | undefined>(files.map((f) => [f.rel, f.text]));
      for (const change of result.changes) {
        // The operations, applied to the file as it was, give exactly what the written file reads as.
        expect(jsonpatch.validate(change.operations, structuredClone(documentOf(change.before)))).toBeUndefined();
        expect(jsonpatch.applyPatch(structuredClone(documentOf(change.before)), change.operations).newDocument).toEqual(documentOf(change.after));
        after.set(change.rel, change.after);
      }
      files.forEach((file, f) => {
        const text = after.get(file.rel);
        const fileStyle = styles[f % styles.length] as Style;
        if (text === undefined) return;
        if (fileStyle.crlf) expect(text.match(/(?<!\r)\n/g)).toBeNull();
        else expect(text.includes('\r')).toBe(false);
        if (text !== file.text) expect(text.endsWith('\n')).toBe(true);
        expect(text.startsWith('\uFEFF')).toBe(fileStyle.bom);
      });

      const written = [...after.entries()].filter(([, text]) => text !== undefined).sort(([a], [b]) => (a < b ? -1 : 1)).map(([rel, text]) => ({ rel, shown: rel, text: text as string }));
      const all = written.map((f) => f.text).join('');
      for (const s of shuffled) {
        if (s.spec.id.startsWith('new')) continue;
        for (const where of commentsOf(styleOf.get(s.spec.id) as Style)) expect(all).toContain(`comment-${s.spec.id}-${where}`);
        // A rule the console left alone stays byte for byte (moved into a file of other line
        // endings or indentation, in that file's).
        if (s.changed) continue;
        const lf = (blockOf.get(s.spec.id) as string).replace(/\r\n/g, '\n');
        const shifts = [-4, -2, 0, 2, 4].map((by) => reindent(lf, by));
        expect(shifts.some((block) => all.includes(block) || all.includes(block.replace(/\n/g, '\r\n')))).toBe(true);
      }

      const redeclared = written.flatMap((f) => readRuleFileText(f));
      const plan = planApp({ app: 'default', declared: redeclared, live, unmanaged: 'keep' });
      expect(plan.problems).toEqual([]);
      expect(plan.plan.steps).toEqual([]);
      expect(plan.plan.unmanaged).toEqual([]);
    }),
    { numRuns },
  );
}
