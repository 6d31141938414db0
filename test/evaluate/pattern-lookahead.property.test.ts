// A pattern that opens with lookaheads at the start of the text is decided by RE2 as its parts
// (src/evaluate/pattern-lookahead.ts): the answer must be RegExp.test's for every text without
// surrogates. Random lookahead bodies and rests from a small grammar (groups, named groups,
// classes, quantifiers, alternation inside and at the top level, backreferences, a quantified
// lookahead), with and without the i flag, against random texts.
import fc from 'fast-check';
import { compilePattern } from '../../src/evaluate/pattern.js';
import { lookaheadParts } from '../../src/evaluate/pattern-lookahead.js';

const CHARS = ['a', 'b', 'A', 'B', 'M', 'o', 'z', '-', '1', '7', ' ', '/', '\n', '\u2028', 'é'];
const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 10 }).map((chars) => chars.join(''));

const atom = fc.constantFrom('a', 'b', 'A', 'Mo', 'z', '-', '7', '.', '\\d', '\\w', '\\s', '\\b', '$', '[a-z]', '[^a]', '[]', '[^]', '\\]', '(a)', '(?<n>b)', '(?:a|b)', '(a|\\))', '[)|(]', '\\1', '\\k<n>', '\\|');
const quantifier = fc.constantFrom('', '', '', '*', '+', '?', '*?', '{2}', '{1,2}');
/** A sequence of atoms, with a top-level alternation once in `1 / alternation` bodies. */
const bodyOf = (alternation: number) => fc.array(fc.tuple(atom, quantifier).map(([a, q]) => a + q), { maxLength: 3 })
  .chain((parts) => fc.constantFrom(`${parts.join('|')}`, ...Array.from({ length: alternation - 1 }, () => parts.join(''))));
const lookahead = fc.tuple(fc.constantFrom('(?=', '(?!'), bodyOf(2), fc.constantFrom('', '', '', '', '', '', '*', '{1}')).map(([open, inner, q]) => `${open}${inner})${q}`);
const pattern = fc.tuple(fc.constantFrom('^', '^', '^', '^', ''), fc.array(lookahead, { minLength: 1, maxLength: 2 }), bodyOf(5))
  .map(([anchor, lookaheads, rest]) => `${anchor}${lookaheads.join('')}${rest}`);

function compiles(source: string, flags: string): boolean {
  try {
    new RegExp(source, flags);
    return true;
  } catch {
    return false;
  }
}

test('answers as RegExp.test for every text without surrogates, with and without the i flag', () => {
  let split = 0;
  fc.assert(fc.property(pattern, fc.boolean(), fc.array(text, { minLength: 1, maxLength: 8 }), (source, ignoreCase, texts) => {
    const flags = ignoreCase ? 'i' : '';
    fc.pre(compiles(source, flags));
    const compiled = compilePattern(source, ignoreCase);
    if (compiled.engine === 're2-parts') split += 1;
    const js = new RegExp(source, flags);
    for (const t of texts) expect([source, flags, t, compiled.test(t)]).toEqual([source, flags, t, js.test(t)]);
  }), { numRuns: 3000 });
  // Most generated patterns are of the split form: the property is not about V8 alone.
  expect(split).toBeGreaterThan(600);
});

describe('which patterns are split', () => {
  test.each([
    ['^(?!Mozilla).*bot-7$', true],
    ['^(?=.*bot)(?!.*good)', true],
    ['^(?=(a+)+$)', true],
    ['(?=a)b', false], // not at the start of the text: a lookahead at every position
    ['^(?!a)b|c', false], // the lookahead holds for the first alternative only
    ['^(?=a)*b', false], // a quantified lookahead (Annex B)
    ['^(?=(a))\\1', false], // a backreference into a lookahead's group
    ['^(?=a)(?<=a)b', false], // lookbehind has no RE2 form
  ])('%j: %j', (source, splits) => {
    expect(lookaheadParts(source, false) !== undefined).toBe(splits);
    expect(compilePattern(source, false).engine).toBe(splits ? 're2-parts' : 'v8');
  });

  test('a catastrophic lookahead at the start is decided at once, as JavaScript would after minutes', () => {
    const pattern = compilePattern('^(?=(a+)+$)', false);
    expect(pattern.test('aaaa')).toBe(true);
    expect(pattern.test(`${'a'.repeat(36)}!`)).toBe(false);
  });

  test('a text with a surrogate runs on V8 under the budget, as for every RE2 pattern', () => {
    // JavaScript without `u` reads an emoji as two characters, each matched by `.`; RE2 as one.
    const pattern = compilePattern('^(?!x)..$', false);
    expect(pattern.engine).toBe('re2-parts');
    expect(pattern.test('\u{1f600}')).toBe(true);
    expect(pattern.test('x\u{1f600}')).toBe(false);
  });
});
