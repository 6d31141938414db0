// The linear-time engine must answer exactly as JavaScript's RegExp does for every pattern it is
// given (src/evaluate/linear-pattern.ts): random patterns from a small grammar that covers the
// places where RE2 and JavaScript differ (`.` and line terminators, `\s`, anchors and newlines,
// case folding under `i`, identity escapes, classes and ranges, quantifiers, Unicode), against
// random texts over an alphabet of the characters those differences are about.
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { linearForm } from '../../src/evaluate/linear-pattern.js';
import { compilePattern } from '../../src/evaluate/pattern.js';

const CHARS = ['a', 'b', 'A', 'B', 'k', 's', 'S', 'K', '0', '9', '_', ' ', '-', '.', '/', '\n', '\r', '\t', '\v', '\u00a0', '\u2028', '\u2029', '\ufeff', '\u017f', '\u212a', 'é', 'É', '\u0000'];
const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 12 }).map((chars) => chars.join(''));

const literal = fc.constantFrom('a', 'b', 'A', 'k', 's', '0', '_', ' ', '-', '/', 'é', '\\.', '\\-', '\\/', '\\a', '\\z', '\\A', '\\e', '\\K', '\\p', '\\t', '\\n', '\\x41', '\\x4', '\\u017f', '\\u00e9', '\\0', '\\cJ', '{', '}', ']', '\\{');
const escape = fc.constantFrom('.', '\\d', '\\D', '\\w', '\\W', '\\s', '\\S', '\\b', '\\B', '^', '$');
const classItem = fc.constantFrom('a', 'z', 'a-z', 'A-Z', 'k', '0-9', '\\d', '\\w', '\\W', '\\s', '\\D', '-', '_', ' ', 'é', '\\u2028', '\\n', '\\b', '\\-', '.', '$', '^a', 'Z-a', '\\x00-\\x1f', ']');
const charClass = fc.tuple(fc.boolean(), fc.array(classItem, { minLength: 0, maxLength: 3 })).map(([negated, items]) => `[${negated ? '^' : ''}${items.join('')}]`);
const quantifier = fc.constantFrom('', '', '*', '+', '?', '*?', '+?', '{2}', '{1,3}', '{0,}', '{,2}');
const atom: fc.Arbitrary<string> = fc.letrec<{ atom: string; pattern: string }>((tie) => ({
  atom: fc.oneof(
    { weight: 4, arbitrary: literal },
    { weight: 2, arbitrary: escape },
    { weight: 2, arbitrary: charClass },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('(', '(?:', '(?<n>'), tie('pattern')).map(([open, inner]) => `${open}${inner})`) },
  ),
  pattern: fc.array(fc.tuple(tie('atom'), quantifier).map(([a, q]) => a + q), { maxLength: 3 })
    .chain((parts) => fc.constantFrom(parts.join(''), `${parts.join('')}|${parts.slice(1).join('')}`)),
})).pattern;

function compilesInJavaScript(source: string, flags: string): boolean {
  try {
    new RegExp(source, flags);
    return true;
  } catch {
    return false;
  }
}

describe('the linear form of a JavaScript pattern', () => {
  test('answers as RegExp.test for every text without surrogates, with and without the i flag', () => {
    fc.assert(fc.property(atom, fc.boolean(), fc.array(text, { minLength: 1, maxLength: 8 }), (source, ignoreCase, texts) => {
      const flags = ignoreCase ? 'i' : '';
      fc.pre(compilesInJavaScript(source, flags));
      const form = linearForm(source, ignoreCase);
      if (form === undefined) return;
      let re2: RE2JS;
      try {
        re2 = RE2JS.compile(form);
      } catch {
        return; // beyond RE2's limits: the pattern runs on V8 under the budget
      }
      const js = new RegExp(source, flags);
      for (const t of texts) expect([source, flags, t, re2.test(t)]).toEqual([source, flags, t, js.test(t)]);
    }), { numRuns: 3000 });
  });

  test.each([
    ['.', 'x\n', true], ['^.$', '\r', false], ['^.$', '\u2028', false], ['^\\s$', '\u00a0', true], ['^\\s$', '\ufeff', true],
    ['a$', 'a\n', false], ['^b', 'a\nb', false], ['\\z', 'z', true], ['\\a', 'a', true], ['^[^a]$', '\u2029', true],
  ])('%j on %j is %j (JavaScript semantics)', (source, input, expected) => {
    expect(new RegExp(source).test(input)).toBe(expected);
    expect(compilePattern(source, false).test(input)).toBe(expected);
    expect(compilePattern(source, false).engine).toBe('re2');
  });

  test('under i, letters fold to their ASCII case only: s and k do not match ſ and the Kelvin sign', () => {
    expect(compilePattern('^s$', true).test('\u017f')).toBe(false);
    expect(compilePattern('^k$', true).test('\u212a')).toBe(false);
    expect(compilePattern('^[a-z]+$', true).test('AbC')).toBe(true);
    expect(compilePattern('^é$', true).engine).toBe('v8');
  });

  test('a class escape before a dash in a class runs on V8: Annex B reads [\\d-a-z] as \\d, -, a, - and z, so k does not match', () => {
    expect(new RegExp('^[\\d-a-z]$').test('k')).toBe(false);
    expect(compilePattern('^[\\d-a-z]$', false).engine).toBe('v8');
    expect(compilePattern('^[\\d-a-z]$', false).test('k')).toBe(false);
    expect(compilePattern('^[\\d-a-z]$', false).test('z')).toBe(true);
    expect(compilePattern('^[\\d-]$', false).engine).toBe('re2');
  });

  test.each(['(a)\\1', '(?=a)b', '(?!a)b', '(?<=a)b', '(?<!a)b', '\\k<n>(?<n>a)', '\\01', '[\\S]', '\\c1', '[]', 'a{1001}'])('%j runs on V8 (no exact RE2 form)', (source) => {
    expect(compilePattern(source, false).engine).toBe('v8');
  });

  test('texts with surrogate code units are decided by V8, where . matches half a pair', () => {
    const pattern = compilePattern('^.$', false);
    expect(pattern.engine).toBe('re2');
    expect(pattern.test('😀')).toBe(false);
    expect(pattern.test('\ud83d')).toBe(true);
  });

  test('the catastrophic pattern is decided by RE2 at once', () => {
    const pattern = compilePattern('^(a+)+$', false);
    expect(pattern.engine).toBe('re2');
    expect(pattern.test(`${'a'.repeat(36)}!`)).toBe(false);
  });

  test('a backtracking-only pattern that runs out of time is undecided, not a guess', () => {
    const pattern = compilePattern('(?=(a+)+$)', false);
    expect(pattern.engine).toBe('v8');
    expect(pattern.test('aaaa')).toBe(true);
    expect(pattern.test(`${'a'.repeat(36)}!`)).toBe('undecided');
    expect(pattern.test(`${'a'.repeat(36)}!`)).toBe('undecided');
  });
});
