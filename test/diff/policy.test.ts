import { provePolicy } from '../../src/diff/policy.js';
import { decide, conditionsVerdict } from '../../src/evaluate/evaluate.js';
import { CLASS_RULE_NAME, type RequestPolicy } from '../../src/rules/policies.js';
import type { WrittenConditions } from '../../src/semantics/written.js';
import { normal } from '../helpers/rules.js';

const health: WrittenConditions = { operator: '$or', children: [{ operator: '$and', children: [{ conditionType: 'path', operator: '$startsWith', value: '/health' }] }] };
const classOf = (conditions: WrittenConditions) => normal({ name: CLASS_RULE_NAME, actions: ['allow'], conditions });

const allowMonitor = normal({ name: 'Allow monitor', actions: ['allow'], conditions: { operator: '$and', children: [{ operator: '$and', children: [{ conditionType: 'path', operator: '$startsWith', value: '/health' }] }] } });
const blockCurl = normal({ name: 'Block curl', actions: ['hardBlock'], conditions: { operator: '$or', children: [{ operator: '$and', children: [{ conditionType: 'userAgent', operator: '$contains', value: 'curl' }] }] } });

function policy(expect: RequestPolicy['expect'], requests?: WrittenConditions): Pick<RequestPolicy, 'requests' | 'expect'> {
  return { expect, ...(requests === undefined ? {} : { requests: classOf(requests) }) };
}

describe('provePolicy', () => {
  it('holds when the allow rule decides every request of the class first', () => {
    expect(provePolicy(policy({ outcome: ['allow', 'none'] }, health), [allowMonitor, blockCurl])).toEqual({ verdict: 'holds' });
  });

  it('is violated with a witness the evaluator confirms, the deciding rule and the condition that lets it through', () => {
    const verdict = provePolicy(policy({ outcome: ['allow', 'none'] }, health), [blockCurl, allowMonitor]);
    expect(verdict.verdict).toBe('violated');
    if (verdict.verdict !== 'violated') return;
    expect(verdict.decided).toEqual({ rule: 'Block curl', actions: ['hardBlock'] });
    expect(verdict.outcome).toBe('block');
    expect(verdict.through).toEqual([{ path: 'conditions.children[0].children[0]', condition: 'user agent containing "curl"' }]);
    expect(decide([blockCurl, allowMonitor], verdict.witness).rule?.name).toBe('Block curl');
    expect(conditionsVerdict(classOf(health).conditions, verdict.witness)).toBe(true);
  });

  it('checks decidedBy: another rule deciding part of the class violates it', () => {
    const verdict = provePolicy(policy({ decidedBy: 'Allow monitor' }, health), [blockCurl, allowMonitor]);
    expect(verdict.verdict).toBe('violated');
    expect(provePolicy(policy({ decidedBy: 'Allow monitor' }, health), [allowMonitor, blockCurl]).verdict).toBe('holds');
  });

  it('reads a missing class as every request, and "none" as no rule deciding', () => {
    const verdict = provePolicy(policy({ outcome: ['allow', 'block'] }), [allowMonitor, blockCurl]);
    expect(verdict.verdict).toBe('violated');
    if (verdict.verdict !== 'violated') return;
    expect(verdict.decided.rule).toBeUndefined();
    expect(verdict.outcome).toBe('none');
    expect(verdict.through).toEqual([]);
  });

  it('is unchecked, naming the option, when the budget is spent: never a pass', () => {
    const verdict = provePolicy(policy({ outcome: ['allow', 'none'] }, health), [allowMonitor, blockCurl], { deadline: Date.now() - 1, budgetHint: '--policy-budget SECONDS gives it more' });
    expect(verdict.verdict).toBe('unchecked');
    if (verdict.verdict !== 'unchecked') return;
    expect(verdict.unchecked[0]?.reason).toMatch(/time budget ran out.*--policy-budget SECONDS/);
  });
});
