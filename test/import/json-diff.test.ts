// The JSON Patch of one rule's parts: lists keep their unchanged items in place.
import jsonpatch from 'fast-json-patch';
import fc from 'fast-check';
import { jsonDiff } from '../../src/import/update/json-diff.js';

const leaf = (value: string) => ({ conditionType: 'path', operator: '$eq', value });

describe('jsonDiff', () => {
  it('removes the fourth leaf as one remove, and edits a changed leaf in place', () => {
    const from = { children: [leaf('/a'), leaf('/b'), leaf('/c'), leaf('/d'), leaf('/e')] };
    expect(jsonDiff(from, { children: [leaf('/a'), leaf('/b'), leaf('/c'), leaf('/e')] }, '/rules/1/conditions/children/0')).toEqual([
      { op: 'remove', path: '/rules/1/conditions/children/0/children/3' },
    ]);
    expect(jsonDiff(from, { children: [leaf('/a'), leaf('/x'), leaf('/c'), leaf('/d'), leaf('/e'), leaf('/f')] }, '')).toEqual([
      { op: 'replace', path: '/children/1/value', value: '/x' },
      { op: 'add', path: '/children/-', value: leaf('/f') },
    ]);
  });

  it('escapes keys as RFC 6901 asks', () => {
    expect(jsonDiff({ 'a/b': 1, 'c~d': 2 }, { 'a/b': 3 }, '')).toEqual([
      { op: 'remove', path: '/c~0d' },
      { op: 'replace', path: '/a~1b', value: 3 },
    ]);
  });

  it('gives operations whose applyPatch is the target, for any two JSON values', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.constantFrom(1, 2, 'a', 'b', null, true), fc.array(tie('value'), { maxLength: 5 }), fc.dictionary(fc.constantFrom('x', 'y', 'z/', '~w'), tie('value'), { maxKeys: 3 })),
    })).value;
    fc.assert(
      fc.property(json, json, (from, to) => {
        const operations = jsonDiff(from, to, '');
        expect(jsonpatch.applyPatch(structuredClone(from), operations).newDocument).toEqual(to);
      }),
      { numRuns: 300 },
    );
  });
});
