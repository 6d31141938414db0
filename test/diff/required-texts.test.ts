// What a rule's ways require of a field's text (src/diff/required-texts.ts): the literal start
// of a pattern (src/evaluate/pattern-literal.ts), and which texts can meet in one value.
import { describe, expect, test } from '@jest/globals';
import { textsMeet, type Texts } from '../../src/diff/required-texts.js';
import { patternStart as literalStart } from '../../src/evaluate/pattern-literal.js';

const none: ReadonlySet<string> = new Set();
const exact = (...values: string[]): Texts => ({ exact: new Set(values), prefix: none, suffix: none });
const prefix = (...values: string[]): Texts => ({ exact: none, prefix: new Set(values), suffix: none });
const suffix = (...values: string[]): Texts => ({ exact: none, prefix: none, suffix: new Set(values) });

describe('the literal start of a pattern', () => {
  test.each([
    ['^/api/v1/', '/api/v1/'],
    ['^/C/[a-z]+', '/C/'],
    ['^/search(/|$)', '/search'],
    ['^\\/p\\.json', '/p.json'],
    ['^/ab?c', '/a'],
    ['^/ab*', '/a'],
    ['^/ab{0,2}', '/a'],
    ['^/ab+', '/a'], // a quantified character is left out, even by `+`
    ['^/a\\d', '/a'],
    ['^/s/k', '/s/k'],
  ])('%s starts with %s', (pattern, start) => {
    expect(literalStart(pattern)).toBe(start);
  });

  test.each([['/api'], ['^/a|^/b'], ['^/a|/b'], ['(^/a)'], ['^[/]a'], ['^.']])('%s has none that every match starts with', (pattern) => {
    expect(literalStart(pattern) ?? '').toBe('');
  });

  test('an alternative inside a group or a class leaves the start', () => {
    expect(literalStart('^/a(b|c)')).toBe('/a');
    expect(literalStart('^/a[|]')).toBe('/a');
  });
});

describe('texts that can meet in one value', () => {
  test.each([
    [exact('a.example'), exact('a.example'), true],
    [exact('a.example'), exact('b.example'), false],
    [exact('a.example'), prefix('a.'), true],
    [exact('a.example'), prefix('b.'), false],
    [exact('a.example'), suffix('.example'), true],
    [exact('a.example'), suffix('.test'), false],
    [prefix('/api/'), prefix('/api/v1/'), true],
    [prefix('/api/v2/'), prefix('/api/v1/'), false],
    [suffix('.json'), suffix('a.json'), true],
    [suffix('.json'), suffix('.xml'), false],
    [prefix('/api/'), suffix('.xml'), true],
    [exact('/api'), prefix('/api/'), false],
  ])('%o and %o: %s', (a, b, meet) => {
    expect(textsMeet(a, b)).toBe(meet);
    expect(textsMeet(b, a)).toBe(meet);
  });
});
