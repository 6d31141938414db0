// The one compiled rule engine (src/semantics/program.ts, src/evaluate/program-verdicts.ts) is
// held to the reference evaluator (src/evaluate/evaluate.ts, leaf.ts) in every view its callers
// use: replay's per-request tree verdicts (also with the leaves on chosen fields unknown), coverage's decisions and group and leaf verdicts (also tested, as whole decisions, by
// test/replay/compiled.property.test.ts), the leaves that explain a rule test's failure, the per-value leaf verdicts, the analysis' verdicts
// over its interned rules (src/validate/verdicts.ts), the patterns named for a rule left undecided, and the behaviour diff's truth of an atom
// whose field a literal fixes (src/diff/atoms.ts); with and without case-insensitive values.
// Each property counts how often it reaches its assertion, so that none passes by never asserting.
import fc from 'fast-check';
import { combine, conditionsVerdict, decide, groupVerdict } from '../../src/evaluate/evaluate.js';
import { fieldOf, requestWith, type TestRequest } from '../../src/evaluate/request.js';
import { leafPatterns, leafVerdict } from '../../src/evaluate/leaf.js';
import { isMapField, REQUEST_FIELDS, requestField } from '../../src/semantics/fields.js';
import { ProgramVerdicts } from '../../src/evaluate/program-verdicts.js';
import { matchedLeaves, missedLeaves, undecidedPatterns, type MissedLeaf } from '../../src/evaluate/program-reasons.js';
import { compileProgram, ProgramBuilder, type ProgramSet } from '../../src/semantics/program.js';
import { CONDITION_TYPES, FIELD_OPTION_TYPES, type Conditions, type Group, type Leaf, type NormalRule } from '../../src/semantics/model.js';
import { internRules } from '../../src/validate/interned.js';
import { Verdicts } from '../../src/validate/verdicts.js';
import { Assignment, AtomTable } from '../../src/diff/atoms.js';
import { leaf, request as analysisRequest } from '../validate/arbitraries.js';
import { declared, normal } from '../helpers/rules.js';

// Upper-case values as well, so that case-insensitive comparison decides some verdicts.
const request = fc.tuple(analysisRequest, fc.boolean()).map(([one, upper]): TestRequest => (upper ? upperCased(one) : one));
const options = fc.record({ caseInsensitiveValues: fc.boolean() });
const group: fc.Arbitrary<Group> = fc.record({ operator: fc.constantFrom<'$and' | '$or'>('$and', '$or'), children: fc.array(leaf, { maxLength: 3 }) });
const conditions: fc.Arbitrary<Conditions> = fc.record({ operator: fc.constantFrom<'$and' | '$or'>('$and', '$or'), children: fc.array(group, { maxLength: 3 }) });

test('the evaluator reads each condition type\'s field where the one table of semantics/fields.ts puts it', () => {
  for (const conditionType of CONDITION_TYPES) {
    const leaf: Leaf = { conditionType, operator: '$exists', ...(FIELD_OPTION_TYPES.includes(conditionType) ? { fieldOption: 'Name' } : {}) };
    const written = requestWith(leaf, 'value');
    expect(Object.keys(written)).toEqual([requestField(leaf)]);
    expect(fieldOf(written, leaf)).toBe('value');
    expect(fieldOf({ ...Object.fromEntries(REQUEST_FIELDS.filter((field) => field !== requestField(leaf)).map((field) => [field, isMapField(field) ? { Name: 'other' } : 'other'])) }, leaf)).toBeUndefined();
  }
});

test('per value and per request, the compiled verdicts are the reference evaluator\'s', () => {
  let reached = 0;
  fc.assert(fc.property(fc.array(conditions, { minLength: 1, maxLength: 4 }), fc.array(request, { minLength: 1, maxLength: 4 }), options, (trees, requests, evaluation) => {
    const program = new ProgramBuilder();
    const ids = trees.map((tree) => program.tree(tree));
    const verdicts = new ProgramVerdicts(program, evaluation);
    for (const one of requests) {
      verdicts.begin(one);
      trees.forEach((tree, t) => {
        expect(verdicts.tree(ids[t] as number)).toBe(conditionsVerdict(tree, one, evaluation));
        for (const written of tree.children.flatMap((g) => g.children)) {
          expect(verdicts.value(program.leaf(written), fieldOf(one, written))).toBe(leafVerdict(written, one, evaluation));
          reached += 1;
        }
      });
    }
  }), { numRuns: 3_000 });
  expect(reached).toBeGreaterThan(10_000);
});

test('with the leaves on chosen fields unknown, the compiled tree\'s verdict is the reference evaluator\'s with those leaves undecided', () => {
  let reached = 0;
  let changed = 0;
  const fields = fc.subarray([...REQUEST_FIELDS]);
  fc.assert(fc.property(fc.array(conditions, { minLength: 1, maxLength: 4 }), fc.array(fc.tuple(request, fields), { minLength: 1, maxLength: 4 }), (trees, asked) => {
    const program = new ProgramBuilder();
    const ids = trees.map((tree) => program.tree(tree));
    const verdicts = new ProgramVerdicts(program);
    for (const [one, unknownFields] of asked) {
      verdicts.begin(one);
      trees.forEach((tree, t) => {
        const expected = combine(tree.operator, tree.children, (g) => combine(g.operator, g.children, (written) =>
          (unknownFields.includes(requestField(written)) ? 'undecided' : leafVerdict(written, one))));
        expect(verdicts.treeWithout(ids[t] as number, ({ field }) => unknownFields.includes(field))).toBe(expected);
        // Asked after, the plain verdict is still the request's: the view remembers nothing of the unknown leaves.
        expect(verdicts.tree(ids[t] as number)).toBe(conditionsVerdict(tree, one));
        reached += 1;
        if (expected !== conditionsVerdict(tree, one)) changed += 1;
      });
    }
  }), { numRuns: 3_000 });
  expect(reached).toBeGreaterThan(10_000);
  expect(changed).toBeGreaterThan(1_000);
});

test('coverage\'s view: the decision and every group\'s and leaf\'s verdict are the reference evaluator\'s', () => {
  let reached = 0;
  const rule = fc.record({ status: fc.constantFrom<'active' | 'paused'>('active', 'active', 'paused'), conditions });
  fc.assert(fc.property(fc.array(rule, { maxLength: 5 }), fc.array(request, { minLength: 1, maxLength: 4 }), options, (written, requests, evaluation) => {
    const rules = written.map((one, i) => normal({ name: `r${i}`, description: '', actions: i % 2 === 0 ? ['allow'] : ['hardBlock'], ...one }));
    const program = compileProgram([rules]);
    const set = program.sets[0] as ProgramSet<NormalRule>;
    const verdicts = new ProgramVerdicts(program, evaluation);
    for (const one of requests) {
      verdicts.begin(one);
      expect(verdicts.decision(set)).toEqual(decide(rules, one, evaluation));
      rules.forEach((r, index) => {
        const tree = program.trees[set.treeOf[index] as number];
        if (tree === undefined) return;
        tree.groups.forEach((g, i) => {
          const group = r.conditions.children[i] as Group;
          expect(verdicts.group(g)).toBe(groupVerdict(group, one, evaluation));
          g.leaves.forEach((id, l) => expect(verdicts.leaf(id)).toBe(leafVerdict(group.children[l] as Leaf, one, evaluation)));
        });
        reached += 1;
      });
    }
  }), { numRuns: 3_000 });
  expect(reached).toBeGreaterThan(5_000);
});

test('the explanation of a failed test: the leaves that decide a match or a miss are the reference evaluator\'s', () => {
  let reached = 0;
  const rule = fc.record({ status: fc.constantFrom<'active' | 'paused'>('active', 'active', 'paused'), conditions });
  fc.assert(fc.property(fc.array(rule, { minLength: 1, maxLength: 4 }), fc.array(request, { minLength: 1, maxLength: 4 }), options, (written, requests, evaluation) => {
    const rules = written.map((one, i) => normal({ name: `r${i}`, description: '', actions: ['allow'], ...one }));
    const program = compileProgram([rules]);
    const set = program.sets[0] as ProgramSet<NormalRule>;
    const verdicts = new ProgramVerdicts(program, evaluation);
    for (const one of requests) {
      verdicts.begin(one);
      rules.forEach((r, position) => {
        const expected = r.status === 'active' ? referenceLeaves(r, one, evaluation) : { missed: [], matched: [] };
        expect(missedLeaves(verdicts, program, set, position)).toEqual(expected.missed);
        expect(matchedLeaves(verdicts, program, set, position)).toEqual(expected.matched);
        if (expected.missed.length + expected.matched.length > 0) reached += 1;
      });
    }
  }), { numRuns: 2_000 });
  expect(reached).toBeGreaterThan(2_000);
});

/**
 * The leaves a reader is shown, by the reference evaluator: when the conditions fail, the false
 * leaves of the false groups; when they match, the true groups (the first under `$or`) and in
 * each its true leaves (the first under `$or`).
 */
function referenceLeaves(rule: NormalRule, one: TestRequest, evaluation: { caseInsensitiveValues: boolean }): { missed: MissedLeaf[]; matched: MissedLeaf[] } {
  const verdict = conditionsVerdict(rule.conditions, one, evaluation);
  const withVerdict = (group: Group, g: number, wanted: boolean): MissedLeaf[] =>
    group.children.flatMap((condition, leaf) => (leafVerdict(condition, one, evaluation) === wanted ? [{ group: g, leaf, condition }] : []));
  const groups = (wanted: boolean) => rule.conditions.children.flatMap((group, g) => (groupVerdict(group, one, evaluation) === wanted ? [{ group, g }] : []));
  const missed = verdict === false ? groups(false).flatMap(({ group, g }) => withVerdict(group, g, false)) : [];
  const trueGroups = groups(true);
  const matched = verdict !== true ? [] : (rule.conditions.operator === '$or' ? trueGroups.slice(0, 1) : trueGroups).flatMap(({ group, g }) => {
    const leaves = withVerdict(group, g, true);
    return group.operator === '$or' ? leaves.slice(0, 1) : leaves;
  });
  return { missed, matched };
}

test('the patterns that left a rule undecided: those of its leaves, as written, that run out of time on the request\'s value', () => {
  // A pattern only the backtracking engine runs, out of time on ATTACK (remembered after: each runs once).
  const ATTACK = `${'a'.repeat(36)}!`;
  const hostile = fc.constantFrom<Leaf>(
    { conditionType: 'userAgent', operator: '$re', value: ['(?=(a+)+$)'] },
    { conditionType: 'userAgent', operator: '$re', value: ['a', '(?=(a+)+$)'] },
    { conditionType: 'userAgent', operator: '$re', value: ['b', '(?=(a+)+$)'] },
  );
  const anyLeaf = fc.oneof(leaf, hostile);
  const hostileGroup = fc.record({ operator: fc.constantFrom<'$and' | '$or'>('$and', '$or'), children: fc.array(anyLeaf, { minLength: 1, maxLength: 3 }) });
  const tree = fc.record({ operator: fc.constantFrom<'$and' | '$or'>('$and', '$or'), children: fc.array(hostileGroup, { minLength: 1, maxLength: 2 }) });
  const agent = fc.tuple(request, fc.constantFrom(ATTACK, 'aaa', 'b', undefined)).map(([one, userAgent]): TestRequest => {
    const { userAgent: _, ...rest } = one;
    return userAgent === undefined ? rest : { ...rest, userAgent };
  });
  let reached = 0;
  fc.assert(fc.property(fc.array(tree, { minLength: 1, maxLength: 3 }), agent, (trees, one) => {
    const rules = trees.map((conditions, i) => normal({ name: `r${i}`, description: '', status: 'active', actions: ['allow'], conditions }));
    const program = compileProgram([rules]);
    const verdicts = new ProgramVerdicts(program);
    verdicts.begin(one);
    rules.forEach((rule, position) => {
      const expected = rule.conditions.children.flatMap((group) => group.children.flatMap((written) => {
        const value = fieldOf(one, written);
        if (value === undefined) return [];
        return leafPatterns(written).filter((pattern) => pattern.test(value) === 'undecided').map((pattern) => ({ leaf: written, pattern: pattern.source, value }));
      }));
      expect(undecidedPatterns(verdicts, program, program.sets[0] as ProgramSet<NormalRule>, position)).toEqual(expected);
      if (expected.length > 0) reached += 1;
    });
  }), { numRuns: 300 });
  expect(reached).toBeGreaterThan(20);
});

test('the analysis\' verdicts over its interned rules are the reference evaluator\'s (an undecided match counts as none)', () => {
  let reached = 0;
  fc.assert(fc.property(fc.array(conditions, { minLength: 1, maxLength: 4 }), fc.array(request, { minLength: 1, maxLength: 4 }), (trees, requests) => {
    const rules = trees.map((tree, i) => declared({ name: `r${i}`, description: '', status: 'active', actions: ['allow'], conditions: tree }));
    const interned = internRules(rules);
    const verdicts = new Verdicts(interned.program);
    for (const one of requests) {
      rules.forEach((rule, r) => {
        const reference = conditionsVerdict(rule.conditions, one) === true;
        expect(verdicts.conditions(interned.conditions[interned.classes[r] as number] as Conditions, (l) => fieldOf(one, l))).toBe(reference);
        expect(verdicts.conditions(rule.conditions, (l) => fieldOf(one, l))).toBe(reference);
        reached += 1;
      });
    }
  }), { numRuns: 3_000 });
  expect(reached).toBeGreaterThan(5_000);
});

test('the behaviour diff\'s truth of an atom whose field a literal fixes is the reference evaluator\'s', () => {
  let reached = 0;
  fc.assert(fc.property(fc.array(leaf, { minLength: 1, maxLength: 6 }), request, options, (leaves, one, evaluation) => {
    for (const sample of leaves) {
      if (sample.conditionType === 'socketIps') continue;
      // A literal that fixes the field to the request's value, or to "absent".
      const value = fieldOf(one, sample);
      const fixing: Leaf = value === undefined
        ? { conditionType: sample.conditionType, operator: '$exists', ...(sample.fieldOption === undefined ? {} : { fieldOption: sample.fieldOption }) }
        : { conditionType: sample.conditionType, operator: '$eq', value, ...(sample.fieldOption === undefined ? {} : { fieldOption: sample.fieldOption }) };
      const table = new AtomTable();
      const fixed = table.add(fixing, 'fixing');
      const atoms = leaves.map((l) => table.add(l, 'rule'));
      const assignment = new Assignment(table, evaluation);
      assignment.push(fixed, value !== undefined);
      leaves.forEach((l, i) => {
        const atom = atoms[i];
        if (atom === undefined || atom === fixed || atom.field !== fixed.field) return;
        expect(assignment.truthOf(atom)).toBe(leafVerdict(l, one, evaluation));
        reached += 1;
      });
    }
  }), { numRuns: 3_000 });
  expect(reached).toBeGreaterThan(1_000);
});

function upperCased(one: TestRequest): TestRequest {
  const out: TestRequest = { ...one };
  if (one.path !== undefined) out.path = one.path.toUpperCase();
  if (one.userAgent !== undefined) out.userAgent = one.userAgent.toUpperCase();
  return out;
}
