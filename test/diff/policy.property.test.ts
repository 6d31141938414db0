// The done-when property of policies (issue: "Proof, not samples"): over random rule sets and
// random policies, every *violated* verdict's witness is confirmed by the reference evaluator
// (in the class, and given an outcome the policy forbids), and every *holds* verdict survives
// 10,000 random requests of the class (each), each decided by the reference evaluator. The requests
// are drawn from the brute-force domain of the rules and the class (every combination of the
// values they mention, one value none mentions, and no value), so they often reach the leaves.
// How often each assertion is reached is counted, and a minimum is required: a property whose
// branches are never taken proves nothing.
import fc from 'fast-check';
import { provePolicy } from '../../src/diff/policy.js';
import { conditionsVerdict, decide } from '../../src/evaluate/evaluate.js';
import type { TestRequest } from '../../src/evaluate/request.js';
import { CLASS_RULE_NAME, POLICY_OUTCOMES, type PolicyExpectation } from '../../src/rules/policies.js';
import { seededRandom } from '../../src/emulator/random.js';
import type { NormalRule } from '../../src/semantics/model.js';
import { normal } from '../helpers/rules.js';
import { leaf as anyLeaf } from '../validate/arbitraries.js';
import { domain, ruleList } from './brute-force.js';

const SAMPLES_PER_HOLDS = 10_000;

const noPattern = anyLeaf.filter((l) => l.operator !== '$re');
const group = fc.record({ operator: fc.constantFrom<'$and' | '$or'>('$and', '$or'), children: fc.array(noPattern, { minLength: 1, maxLength: 2 }) });
const classRule: fc.Arbitrary<NormalRule> = fc
  .record({ operator: fc.constantFrom<'$and' | '$or'>('$and', '$or'), children: fc.array(group, { minLength: 1, maxLength: 2 }) })
  .map((conditions) => normal({ name: CLASS_RULE_NAME, actions: ['allow'], conditions }));
const expectation = (rules: readonly NormalRule[]): fc.Arbitrary<PolicyExpectation> => fc.oneof(
  fc.subarray([...POLICY_OUTCOMES], { minLength: 1 }).map((outcome) => ({ outcome })),
  fc.constantFrom(...rules.map((rule) => rule.name)).map((decidedBy) => ({ decidedBy })),
);
const cases = ruleList(false).chain((rules) => fc.tuple(fc.constant(rules), fc.option(classRule, { nil: undefined }), expectation(rules), fc.integer()));

/** The test's own reading of a policy (not the module's): what the reference evaluator's decision means for it. */
function outcomeWord(actions: readonly string[]): string {
  if (actions.length === 0) return 'none';
  return actions.includes('hardBlock') ? 'block' : actions.includes('blockWithChallenge') ? 'challenge' : 'allow';
}
function breaks(expect: PolicyExpectation, decided: { rule: string | undefined; actions: readonly string[] }): boolean {
  return 'decidedBy' in expect ? decided.rule !== expect.decidedBy : !(expect.outcome as readonly string[]).includes(outcomeWord(decided.actions));
}

describe('provePolicy against the reference evaluator', () => {
  it('confirms every violated witness, and no sampled request of the class breaks a policy that holds', () => {
    const reached = { violated: 0, holds: 0, sampledInClass: 0 };
    fc.assert(
      fc.property(cases, ([rules, requests, expect_, seed]) => {
        const sets = requests === undefined ? [rules] : [rules, [requests]];
        const pool = domain(sets);
        fc.pre(pool.length <= 20000);
        const policy = { expect: expect_, ...(requests === undefined ? {} : { requests }) };
        const verdict = provePolicy(policy, rules);
        const inClass = (request: TestRequest) => requests === undefined || conditionsVerdict(requests.conditions, request) === true;
        const outcomeOf = (request: TestRequest) => {
          const decision = decide(rules, request);
          return { rule: decision.rule?.name, actions: [...decision.actions] };
        };
        expect(verdict.verdict).not.toBe('unchecked');
        if (verdict.verdict === 'violated') {
          reached.violated += 1;
          expect(inClass(verdict.witness)).toBe(true);
          const decided = outcomeOf(verdict.witness);
          expect(breaks(policy.expect, decided)).toBe(true);
          expect(decided).toEqual(verdict.decided);
          expect(outcomeWord(decided.actions)).toBe(verdict.outcome);
        }
        if (verdict.verdict === 'holds') {
          reached.holds += 1;
          // 10,000 requests of the class each (drawn from the domain's members of the class).
          const members = pool.filter(inClass);
          const next = seededRandom(seed);
          for (let i = 0; members.length > 0 && i < SAMPLES_PER_HOLDS; i++) {
            const request = members[Math.floor(next() * members.length)] as TestRequest;
            reached.sampledInClass += 1;
            if (breaks(policy.expect, outcomeOf(request))) throw new Error(`policy said to hold, but ${JSON.stringify(request)} gets ${JSON.stringify(outcomeOf(request))}`);
          }
        }
      }),
      { numRuns: 300 },
    );
    // Both verdicts are reached often, and the holds verdicts are tested on many requests of their class.
    expect(reached.violated).toBeGreaterThanOrEqual(50);
    expect(reached.holds).toBeGreaterThanOrEqual(30);
    expect(reached.sampledInClass).toBeGreaterThanOrEqual(30 * SAMPLES_PER_HOLDS);
  });
});
