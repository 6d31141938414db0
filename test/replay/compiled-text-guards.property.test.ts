// The compiled rule set's index selects rules by a value's suffixes, the texts it contains and
// the text each `$re` pattern requires, and by the answers of V8-run patterns (lookaheads) asked
// in one budgeted run (src/replay/rule-index.ts, verdicts.ts). Those lookups only ever
// skip a rule the reference evaluator finds false: on random rules over a small alphabet of texts
// and patterns (groups, classes, escapes, alternations, lookaheads, quantifiers) and random
// values, including surrogates, the compiled set decides as src/evaluate/ does.
import fc from 'fast-check';
import type { TestRequest } from '../../src/evaluate/request.js';
import type { Group, Leaf } from '../../src/semantics/model.js';
import { patternLiteral } from '../../src/evaluate/pattern-literal.js';
import { normal } from '../helpers/rules.js';
import { expectDecidedAsReference, ruleOf } from './compiled-oracle.js';

const TEXTS = ['', 'b', 'bo', 'bot-1', 'ot-1', 'bot-12', 'x.y', ']', 'a\\b'];
const PATTERNS = [
  'bot-1', '^bot-1$', '(?:^|[^a-z])bot-1$', '^(?!Mozilla).*bot-1$', 'bot|x', '(bot|x)-1', '[\\]b]ot', '[]bot',
  'b?ot-1', 'bo+t', '\\x62ot', '\\bbot-\\d', 'x\\.y', '(?=bot)bo', 'a{2}bot', 'bot-1{0}', '\\u0062ot', '[^]ot', '(', 'b(?<=b)ot',
];
const VALUES = ['bot-1', 'bot-12', 'xbot-1', 'Mozilla bot-1', 'abot-1', 'bbot', 'x.y', 'xzy', ']ot', 'bot', '\ud83dbot-1', 'aabot', 'bot-', 'ot-1', ''];

const textLeaf: fc.Arbitrary<Leaf> = fc.tuple(
  fc.constantFrom<Leaf['conditionType']>('userAgent', 'path', 'header'),
  fc.constantFrom<Leaf['operator']>('$endsWith', '$contains', '$startsWith', '$re', '$re', '$eq', '$notEndsWith'),
  fc.constantFrom(...TEXTS),
  fc.array(fc.constantFrom(...PATTERNS), { minLength: 1, maxLength: 2 }),
).map(([conditionType, operator, text, patterns]) => ({
  conditionType, operator, ...(conditionType === 'header' ? { fieldOption: 'x-agent' } : {}), value: operator === '$re' ? patterns : text,
}));
const group: fc.Arbitrary<Group> = fc.record({ operator: fc.constantFrom<'$and' | '$or'>('$and', '$or'), children: fc.array(textLeaf, { minLength: 1, maxLength: 3 }) });
const rule = ruleOf(group);
const request: fc.Arbitrary<TestRequest> = fc.record({
  userAgent: fc.constantFrom(...VALUES),
  path: fc.constantFrom(...VALUES),
  headers: fc.option(fc.constantFrom(...VALUES).map((value) => ({ 'x-agent': value })), { nil: undefined }),
}, { requiredKeys: [] });

test('rules selected by suffix, contained text and pattern answers decide as the reference evaluator does', () => {
  fc.assert(fc.property(fc.array(rule, { minLength: 1, maxLength: 10 }), fc.array(request, { minLength: 1, maxLength: 10 }), (rules, requests) => {
    const live = rules.map((r, i) => normal({ ...r, name: `rule ${i}` }));
    const declared = [...live].reverse();
    expectDecidedAsReference(live, declared, requests);
  }), { numRuns: 5_000 });
});

test('a pattern\'s required text is in every value the pattern matches', () => {
  fc.assert(fc.property(fc.constantFrom(...PATTERNS), fc.constantFrom(...VALUES, ...TEXTS), (pattern, value) => {
    const text = patternLiteral(pattern);
    let regex: RegExp;
    try {
      regex = new RegExp(pattern);
    } catch {
      return;
    }
    if (text !== undefined && regex.test(value)) expect(value).toContain(text);
  }), { numRuns: 2_000 });
});
