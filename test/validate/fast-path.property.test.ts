// The indexed analysis (src/validate/) against the pairwise reference it replaced
// (pairwise-reference.ts): exactly the same findings, messages and order on generated rule
// sets. The sets mix small-vocabulary leaves (so rules often imply, contradict and overlap each
// other), paused rules, allow and blocking rules, empty groups and empty roots, and copies of
// earlier rules' conditions: written identically, and reordered (equal as sets only).
import fc from 'fast-check';
import { analyseRules, type Finding } from '../../src/validate/checks.js';
import { generateRules } from '../../src/emulator/generate-rules.js';
import { seededRandom } from '../../src/emulator/random.js';
import type { Action, Conditions, DeclaredRule, Rule, Status } from '../../src/semantics/model.js';
import { leaf } from './arbitraries.js';
import { analyseRulesPairwise } from './pairwise-reference.js';
import { declared } from '../helpers/rules.js';

const operator = fc.constantFrom<'$or' | '$and'>('$or', '$and');
const conditions: fc.Arbitrary<Conditions> = fc.record({
  operator,
  children: fc.array(fc.record({ operator, children: fc.array(leaf, { minLength: 0, maxLength: 3 }) }), { minLength: 0, maxLength: 3 }),
});
const written = fc.record({
  conditions,
  status: fc.constantFrom<Status>('active', 'active', 'active', 'paused'),
  actions: fc.constantFrom<Action[]>(['allow'], ['hardBlock'], ['blockWithChallenge'], ['allow', 'hardBlock']),
});

/** Copy `k`: the conditions of an earlier rule, as written (k % 3 = 0), groups reversed (1) or leaves reversed (2). */
function copied(source: Conditions, k: number): Conditions {
  const copy = structuredClone(source);
  if (k % 3 === 1) copy.children.reverse();
  if (k % 3 === 2) for (const group of copy.children) group.children.reverse();
  return copy;
}

const ruleSets: fc.Arbitrary<DeclaredRule[]> = fc.tuple(fc.array(written, { minLength: 1, maxLength: 30 }), fc.array(fc.nat(), { maxLength: 15 }))
  .map(([rules, copies]) => {
    const all: Rule[] = rules.map((r, i) => ({ name: `r${i}`, description: '', ...r }));
    for (const k of copies) {
      const source = all[k % all.length] as Rule;
      all.splice(k % (all.length + 1), 0, { ...source, name: `copy ${k}`, status: k % 4 === 0 ? 'paused' : 'active', conditions: copied(source.conditions, k) });
    }
    return located(all);
  });

function located(rules: readonly Rule[]): DeclaredRule[] {
  return rules.map((rule, i) => declared({ ...rule, source: { file: 'rules/a.yaml', line: i + 1, col: 5 } }));
}

function counted(findings: readonly Finding[], into: Map<string, number>): void {
  for (const finding of findings) into.set(finding.check, (into.get(finding.check) ?? 0) + 1);
}

describe('the indexed analysis', () => {
  it('reports exactly what the pairwise analysis reports on generated rule sets', () => {
    const seen = new Map<string, number>();
    fc.assert(fc.property(ruleSets, (rules) => {
      const findings = analyseRules(rules);
      expect(findings).toEqual(analyseRulesPairwise(rules));
      counted(findings, seen);
    }), { numRuns: 400, seed: 21 });
    // The comparison says something only if every check finds things: more than 30 findings of
    // each (the check's name stands beside its count, so a failure names the check).
    const rare = ['shadowed-rule', 'duplicate-conditions', 'unsatisfiable-group', 'catch-all', 'allow-before-block']
      .map((check) => [check, seen.get(check) ?? 0] as const)
      .filter(([, count]) => count <= 30);
    expect(rare).toEqual([]);
  });

  it('reports exactly what the pairwise analysis reports on realistic generated rules', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 20, max: 400 }), (seed, count) => {
      const rules = located(generateRules(seededRandom(seed), count));
      expect(analyseRules(rules)).toEqual(analyseRulesPairwise(rules));
    }), { numRuns: 25, seed: 22 });
  });
});
