// The prefilter of the redos-pattern check (src/validate/redos.ts) against the checker itself:
// a pattern the filter lets pass without asking (no repeated group or backreference) is never
// found exponential by recheck, on random patterns from a small grammar rich in the shapes that
// backtrack (nested and adjacent quantifiers, overlapping alternatives, classes).
import fc from 'fast-check';
import { checkSync } from 'recheck';
import { mayBeExponential } from '../../src/validate/redos.js';

const atom = fc.constantFrom('a', 'b', '.', '\\d', '\\w', '\\s', '[ab]', '[^a]', '(a|a)', '(a|ab)', '(?:a|b)', '(a*)', '(?:a+)', '\\(', '[(]', '(?=a)');
const quantifier = fc.constantFrom('', '', '*', '+', '?', '{2}', '{0,1}', '{2,}', '{1,5}', '*?');
const pattern = fc.tuple(fc.boolean(), fc.array(fc.tuple(atom, quantifier).map(([a, q]) => a + q), { minLength: 1, maxLength: 4 }), fc.boolean())
  .map(([start, parts, end]) => `${start ? '^' : ''}${parts.join('')}${end ? '$' : ''}`);

describe('redos-pattern prefilter', () => {
  test('a pattern without a repeated group or backreference is never exponential', () => {
    fc.assert(fc.property(pattern, (source) => {
      fc.pre(!mayBeExponential(source));
      const diagnostics = checkSync(source, '', { timeout: 2000 });
      expect([source, diagnostics.status === 'vulnerable' ? diagnostics.complexity.type : diagnostics.status]).not.toEqual([source, 'exponential']);
    }), { numRuns: 60 });
  }, 300_000);

  test.each(['^(a+)+$', '(a|a)*b', '((ab)*)*x', '(a)\\1+', '(?:x|y){2,}'])('%j is asked', (source) => {
    expect(mayBeExponential(source)).toBe(true);
  });

  test.each(['^/product/[0-9]+$', 'a*a*b', '[(]+', '\\(a\\)+', '(a|b)?', '(ab){1}', '[)]*'])('%j is not asked', (source) => {
    expect(mayBeExponential(source)).toBe(false);
  });
});
