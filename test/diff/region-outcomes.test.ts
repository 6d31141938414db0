// What a region search keeps of its outcomes (src/diff/found-regions.ts): one copy per outcome
// object the search decides with, shared by every region and list, and keys that number the
// outcomes by their outcomeKey; and the transition check's states sharing a class's region where
// the outcome in between is the same (src/diff/order/windows.ts). The transition check's regions
// have an outcome per state, hundreds each: a copy per list and a key of every outcomeKey were
// most of what its first region search kept.
import { describe, expect, test } from '@jest/globals';
import { FoundRegions } from '../../src/diff/found-regions.js';
import type { DecidedOutcome, RegionOutcome } from '../../src/diff/entries.js';
import { checkStates } from '../../src/diff/order/windows.js';
import type { Leaf, NormalRule, Rule } from '../../src/semantics/model.js';
import { normal } from '../helpers/rules.js';

describe('the outcomes a region search keeps', () => {
  test('each outcome object is copied once, and every region holds that copy', () => {
    const block: DecidedOutcome = { rule: 'Block python', actions: ['hardBlock'] };
    const allow: DecidedOutcome = { rule: 'Allow API', actions: ['allow'] };
    const found = new FoundRegions();
    const first = found.copies([block, allow, block]);
    const second = found.copies([allow, block]);
    expect(first).toEqual([block, allow, block]);
    // Copies, not the search's own objects or action lists.
    expect(first[0]).not.toBe(block);
    expect(first[0]?.actions).not.toBe(block.actions);
    // One copy per outcome object, whichever list or region it is read for.
    expect(first[2]).toBe(first[0]);
    expect(second[0]).toBe(first[1]);
    expect(second[1]).toBe(first[0]);
  });

  test('keys tell outcomes apart as outcomeKey does: by rule and set of actions, not by object', () => {
    const found = new FoundRegions();
    const both: DecidedOutcome = { rule: 'Challenge FR', actions: ['blockWithChallenge', 'allow'] };
    const bothAgain: DecidedOutcome = { rule: 'Challenge FR', actions: ['allow', 'blockWithChallenge'] };
    const other: DecidedOutcome = { rule: 'Challenge DE', actions: ['blockWithChallenge', 'allow'] };
    const none: DecidedOutcome = { rule: undefined, actions: [] };
    expect(found.keyOf([both, none], [])).toBe(found.keyOf([bothAgain, none], []));
    expect(found.keyOf([both, none], [])).not.toBe(found.keyOf([other, none], []));
    expect(found.keyOf([both, none], [])).not.toBe(found.keyOf([none, both], []));
    expect(found.keyOf([both, both], [])).not.toBe(found.keyOf([both, none], []));
  });
});

const decidingRule = (outcome: RegionOutcome | undefined): string | undefined => (outcome !== undefined && 'rule' in outcome ? outcome.rule : undefined);

function ruleOf(name: string, actions: Rule['actions'], leaf: Leaf): NormalRule {
  return normal({ name, description: '', status: 'active', actions, conditions: { operator: '$or', children: [{ operator: '$and', children: [leaf] }] } });
}

describe('the states of a transition check', () => {
  test('the states a class is open in with the same outcome share its region', () => {
    const blockPython = ruleOf('Block python', ['hardBlock'], { conditionType: 'userAgent', operator: '$contains', value: 'python' });
    const allowApi = ruleOf('Allow API', ['allow'], { conditionType: 'path', operator: '$startsWith', value: '/api' });
    const blockAdmin = ruleOf('Block admin', ['hardBlock'], { conditionType: 'path', operator: '$startsWith', value: '/admin' });
    const paused = { ...blockAdmin, status: 'paused' as const };
    // "Block python" below "Allow API" in the three states in between: python on /api is let through.
    const checked = checkStates([
      [blockPython, allowApi, blockAdmin],
      [allowApi, blockPython, blockAdmin],
      [allowApi, blockPython, paused],
      [allowApi, blockPython, blockAdmin],
      [blockPython, allowApi, blockAdmin],
    ]);
    const open = [1, 2, 3].map((state) => checked.states.get(state)?.open ?? []);
    const python = open.map((regions) => regions.find((region) => decidingRule(region.outcomes[1]) === 'Allow API'));
    expect(python.every((region) => region !== undefined)).toBe(true);
    expect(python[0]?.outcomes.map(decidingRule)).toEqual(['Block python', 'Allow API', 'Block python']);
    expect(python[1]).toBe(python[0]);
    expect(python[2]).toBe(python[0]);
  });
});
