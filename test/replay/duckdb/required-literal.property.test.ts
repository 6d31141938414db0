// requiredLiteral() (src/replay/duckdb/required-literal.ts): on random patterns built from
// literals, classes, escapes, anchors, quantifiers, groups and alternations, every text the
// pattern matches (JavaScript's answer) contains the literal it names; and it names one for the
// patterns users write most (`bot-5\b`, `^5$`).
import { compilePattern } from '../../../src/evaluate/pattern.js';
import { linearForm } from '../../../src/evaluate/linear-pattern.js';
import { seededRandom } from '../../../src/emulator/random.js';
import { requiredLiteral } from '../../../src/replay/duckdb/required-literal.js';

const PIECES = ['a', 'b', 'ab', 'bot-', '5', '.', '\\.', '\\b', '\\d', '[ab]', '[^a]', '^', '$', '?', '*', '+', '{2}', '{1,2}', '(?:ab)', '|', 'x', 'é',
  '(?:^|x)', '(?:a|b)+', '(a)', '[|(]', '\\(', '\\|', '*?', '(?:a(?:b|x))?', '(?:bot-5)', '(?:ab)+', '(?:ab)*', '(?:x(?:ab))'];
const TEXTS = ['a', 'b', 'ab', 'aab', 'bot-5', 'bot-55', 'x.b', 'ba', 'é', 'abab', '5', 'a5b', 'xx', ''];

it('names a text every match contains, on random patterns', () => {
  const next = seededRandom(37);
  let named = 0;
  let matched = 0;
  for (let round = 0; round < 20_000; round += 1) {
    const source = Array.from({ length: 1 + Math.floor(next() * 5) }, () => PIECES[Math.floor(next() * PIECES.length)] as string).join('');
    const form = (() => { try { return linearForm(source, false); } catch { return undefined; } })();
    if (form === undefined) continue;
    const literal = requiredLiteral(form);
    if (literal === undefined) continue;
    named += 1;
    const pattern = compilePattern(source, false);
    for (const base of TEXTS) {
      for (const text of [base, `${base}${base}`, `x${base}y`]) {
        if (pattern.test(text) !== true) continue;
        matched += 1;
        expect({ source, text, contains: text.includes(literal) }).toEqual({ source, text, contains: true });
      }
    }
  }
  expect(named).toBeGreaterThan(1000);
  expect(matched).toBeGreaterThan(1000);
});

it('names the literal of the patterns users write most', () => {
  expect(requiredLiteral(linearForm('bot-5\\b', false) as string)).toBe('bot-5');
  expect(requiredLiteral(linearForm('^1234$', false) as string)).toBe('1234');
  expect(requiredLiteral(linearForm('(?:^|[^a-z])bot-5$', false) as string)).toBe('bot-5');
  expect(requiredLiteral(linearForm('^/api/v1/(items|cart)/55(/|$)', false) as string)).toBe('/api/v1/');
});

it('refuses what would change the rest of the pattern or is not read, and skips classes whole', () => {
  expect(requiredLiteral('(?i)abc')).toBeUndefined();
  expect(requiredLiteral('(?i:x)abc')).toBeUndefined();
  expect(requiredLiteral('\\Qabc\\E')).toBeUndefined();
  expect(requiredLiteral('\\x41bc')).toBeUndefined();
  expect(requiredLiteral('\\pLabc')).toBeUndefined();
  expect(requiredLiteral('ab|cde')).toBeUndefined();
  expect(requiredLiteral('[^]a]bc')).toBe('bc');
  expect(requiredLiteral('[[:alpha:]]bc')).toBe('bc');
  expect(requiredLiteral('(?:a|b)cd')).toBe('cd');
  expect(requiredLiteral('^(?:[^x]*bot-10$)')).toBe('bot-10');
  expect(requiredLiteral('(?:abc)?d')).toBe('d');
  expect(requiredLiteral('ab{2}c')).toBe('a');
  expect(requiredLiteral('xa+bc')).toBe('abc');
});
