// Every consumer of the rule semantics agrees on random rules (docs/design.md, "One rule
// semantics"): the rule-file boundary and the server boundary make the same normal form;
// the planner, `import --update` and the changed-field list agree on what changed; the
// emulator's list-move and the planner's simulation put rules in the same order; and a
// plan keeps every field botrules does not know on the server unless its step names it.
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { patchRuleAnswer } from '../../src/emulator/rules-api.js';
import type { StoredApp } from '../../src/emulator/state.js';
import { ruleFileText } from '../../src/import/rule-file.js';
import { updateRuleFiles } from '../../src/import/update/index.js';
import { planApp } from '../../src/plan/planner.js';
import { parseRuleFile } from '../../src/rules/rule-file.js';
import { canonicalJson, changedFields, exactLeafKey } from '../../src/semantics/canonical.js';
import { simulateSteps } from '../../src/semantics/list-move.js';
import type { Conditions, DeclaredRule, Leaf, LiveRule } from '../../src/semantics/model.js';
import { normaliseLiveRule, type LooseRule } from '../../src/semantics/normalise.js';
import { unknownFieldNames } from '../../src/semantics/unknown.js';
import { fieldKey, leafValues } from '../../src/semantics/fields.js';
import { conditionsVerdict } from '../../src/evaluate/evaluate.js';
import { fieldOf, requestWith } from '../../src/evaluate/request.js';
import { leafVerdict } from '../../src/evaluate/leaf.js';
import { leaf as analysedLeaf, request } from '../validate/arbitraries.js';
import { live as liveFrom } from '../helpers/rules.js';

const RUNS = { numRuns: 60 };

/** Leaves every check accepts, some carrying fields botrules does not know. */
const leaf: fc.Arbitrary<Leaf> = fc
  .tuple(
    fc.oneof(
      fc.tuple(fc.constantFrom('userAgent', 'path'), fc.constantFrom('$contains', '$eq', '$startsWith'), fc.constantFrom('a', 'b', '/x')).map(
        ([conditionType, operator, value]) => ({ conditionType, operator, value }) as Leaf,
      ),
      fc.subarray(['203.0.113.0/24', '198.51.100.7', '2001:db8::/32'], { minLength: 1 }).map((value) => ({ conditionType: 'socketIps', operator: '$in', value }) as Leaf),
      fc.constantFrom('x-a', 'x-b').map((fieldOption) => ({ conditionType: 'header', fieldOption, operator: '$exists' }) as Leaf),
      fc.constantFrom('GET', 'POST').map((value) => ({ conditionType: 'httpMethod', operator: '$eq', value }) as Leaf),
    ),
    fc.option(fc.boolean(), { nil: undefined }),
    fc.option(fc.constantFrom('from the console', 'v2'), { nil: undefined }),
  )
  .map(([known, caseSensitive, note]) => ({ ...known, ...(caseSensitive === undefined ? {} : { caseSensitive }), ...(note === undefined ? {} : { note }) }) as Leaf);

const conditions: fc.Arbitrary<Conditions> = fc.record({
  operator: fc.constantFrom('$or', '$and'),
  children: fc.array(
    fc.record({ operator: fc.constantFrom('$or', '$and'), children: fc.array(leaf, { minLength: 1, maxLength: 3 }) }),
    { minLength: 1, maxLength: 3 },
  ),
}) as fc.Arbitrary<Conditions>;

const liveRule: fc.Arbitrary<LiveRule> = fc
  .record({
    name: fc.constantFrom('Block scrapers', 'Allow monitors'),
    description: fc.constantFrom('', 'why'),
    status: fc.constantFrom('active', 'paused'),
    actions: fc.subarray(['allow', 'blockWithChallenge', 'hardBlock'] as const, { minLength: 1 }),
    conditions,
    labels: fc.option(fc.constant(['edge']), { nil: undefined }),
  })
  .map(({ labels, ...fields }) => liveFrom({ ...fields, ...(labels === undefined ? {} : { labels }), ruleId: 'r-1', priority: 0 } as LooseRule & { ruleId: string }));

/** A rule as its file declares it, read back through the rule-file boundary. */
function declaredFrom(rule: LiveRule): DeclaredRule {
  const read = parseRuleFile(new TextEncoder().encode(ruleFileText(rule)), 'rules/010-r.yaml');
  expect(read.problems).toEqual([]);
  return read.rules[0] as DeclaredRule;
}

/** The live rule with some of its parts changed, reordered or dropped: what a file might declare. */
const edited = (live: LiveRule): fc.Arbitrary<LiveRule> =>
  fc
    .record({ name: fc.boolean(), status: fc.boolean(), reverse: fc.boolean(), replaceLeaf: fc.option(leaf, { nil: undefined }) })
    .map(({ name, status, reverse, replaceLeaf }) => {
      const rule = structuredClone(live);
      if (name) rule.name = `${rule.name} (renamed)`;
      if (status) rule.status = rule.status === 'active' ? 'paused' : 'active';
      if (reverse) rule.conditions.children.reverse();
      const group = rule.conditions.children[0];
      if (replaceLeaf !== undefined && group !== undefined) group.children[0] = replaceLeaf;
      return rule;
    });

describe('one rule semantics: every consumer agrees', () => {
  test('the rule-file boundary and the server boundary make the same normal form, unknown fields included', () => {
    fc.assert(
      fc.property(liveRule, (live) => {
        const declared = declaredFrom(live);
        const listed = normaliseLiveRule(JSON.parse(JSON.stringify(live)) as LooseRule, 'content[0]', live.ruleId, 0);
        expect(canonicalJson(declared)).toBe(canonicalJson(live));
        expect(canonicalJson(listed)).toBe(canonicalJson(live));
        const leaves = (rule: { conditions: Conditions }) => rule.conditions.children.flatMap((g) => g.children.map(exactLeafKey));
        expect(leaves(declared)).toEqual(leaves(live));
        expect(leaves(listed)).toEqual(leaves(live));
        expect(unknownFieldNames(declared, 'rule')).toEqual(unknownFieldNames(live, 'rule'));
      }),
      RUNS,
    );
  });

  test('the planner, import --update and changedFields agree on which fields changed', () => {
    fc.assert(
      fc.property(liveRule.chain((live) => fc.tuple(fc.constant(live), edited(live))), ([live, wanted]) => {
        const declared = declaredFrom(wanted);
        const fields = changedFields(live, declared);
        const { plan } = planApp({ app: 'default', declared: [declared], live: [live], unmanaged: 'keep' });
        expect(plan.steps.flatMap((step) => step.changes.map((change) => change.field))).toEqual(fields);
        const file = { rel: '010-r.yaml', shown: 'rules/010-r.yaml', text: ruleFileText(wanted) };
        const update = updateRuleFiles({ files: [file], declared: [{ ...declared, source: { ...declared.source, file: file.shown } }], live: [live], schema: 'x' });
        // import --update also writes back unknown fields that differ; the planner never compares them.
        expect(update.edited.flatMap((edit) => edit.fields).filter((field) => field !== 'fields botrules does not know')).toEqual(fields);
      }),
      RUNS,
    );
  });

  test('a plan keeps every unknown live field on the server, or names it in its step', () => {
    fc.assert(
      fc.property(liveRule.chain((live) => fc.tuple(fc.constant(live), edited(live))), ([live, wanted]) => {
        const declared = declaredFrom(wanted);
        const { plan } = planApp({ app: 'default', declared: [declared], live: [live], unmanaged: 'keep' });
        const [after] = simulateSteps([live], plan.steps) as [LiveRule];
        expect(canonicalJson(after)).toBe(canonicalJson(declared));
        const dropped = new Set(plan.steps.flatMap((step) => (step.dropsUnknown ?? []).map((d) => `${d.path} ${d.field}`)));
        const keptKeys = new Set(after.conditions.children.flatMap((g) => g.children.map(exactLeafKey)));
        live.conditions.children.forEach((group, g) =>
          group.children.forEach((part, l) => {
            const fields = unknownFieldNames(part, 'leaf');
            if (fields.length === 0) return;
            const named = fields.every((field) => dropped.has(`conditions.children[${g}].children[${l}] ${field}`));
            expect(keptKeys.has(exactLeafKey(part)) || named).toBe(true);
          }),
        );
        expect(unknownFieldNames(after, 'rule')).toEqual(unknownFieldNames(live, 'rule'));
      }),
      RUNS,
    );
  });

  test('the emulator moves rules exactly as the planner simulates the service', () => {
    const moves = fc.integer({ min: 2, max: 8 }).chain((count) =>
      fc.tuple(fc.constant(count), fc.array(fc.tuple(fc.nat(count - 1), fc.nat(count - 1)), { maxLength: 8 })),
    );
    fc.assert(
      fc.property(moves, ([count, sequence]) => {
        const live: LiveRule[] = Array.from({ length: count }, (_, i) => liveFrom({
          name: `R${i}`, ruleId: `id-${i}`, description: '', status: 'active', actions: ['allow'], priority: i,
          conditions: { operator: '$or', children: [{ operator: '$and', children: [{ conditionType: 'path', operator: '$eq', value: `/${i}` }] }] },
        }));
        const app: StoredApp = { token: '', rules: live.map(({ priority: _p, ...rule }) => structuredClone(rule)) };
        const steps = sequence.map(([who, to]) => ({ ruleId: `id-${who}`, name: `R${who}`, body: { priority: to } }));
        for (const step of steps) expect(patchRuleAnswer(app, step.ruleId, step.body, 'list-move').status).toBe(200);
        expect(app.rules.map((rule) => rule.ruleId)).toEqual(simulateSteps(live, steps).map((rule) => rule.ruleId));
      }),
      RUNS,
    );
  });

  test('the evaluator decides every request alike for a rule read from its file, from the server and as written', () => {
    fc.assert(
      fc.property(liveRule, fc.array(request, { minLength: 20, maxLength: 20 }), (live, requests) => {
        const declared = declaredFrom(live);
        const listed = normaliseLiveRule(JSON.parse(JSON.stringify(live)) as LooseRule, 'content[0]', live.ruleId, 0);
        for (const sample of requests) {
          const verdict = conditionsVerdict(live.conditions, sample);
          expect([conditionsVerdict(declared.conditions, sample), conditionsVerdict(listed.conditions, sample)]).toEqual([verdict, verdict]);
        }
      }),
      RUNS,
    );
  });

  test('the analysis and the evaluator read the same field of a request for a leaf, and the same values', () => {
    fc.assert(
      fc.property(analysedLeaf, analysedLeaf, fc.constantFrom('v', '/v', '10.0.0.1'), (a, b, value) => {
        // A request carrying a value in a's field (as the analysis builds its examples) is read
        // by the evaluator for b exactly when fieldKey says a and b read the same field.
        const carried = requestWith(a, value);
        expect(fieldOf(carried, b)).toBe(fieldKey(a) === fieldKey(b) ? value : undefined);
        // $in with a text leaf's values (as the normal form lists them) holds for each of them
        // (an address leaf's values are ranges, not addresses a request carries).
        const values = b.conditionType === 'socketIps' ? [] : leafValues(b);
        const asList = { conditionType: b.conditionType, operator: '$in' as const, value: [...values], ...(b.fieldOption === undefined ? {} : { fieldOption: b.fieldOption }) };
        for (const each of values) expect(leafVerdict(asList, requestWith(b, each))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
