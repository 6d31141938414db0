import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { csvCell, markdownHtml, markdownText, safeText, workflowCommandData, workflowCommandProperty } from '../../src/render/sanitise.js';

/** Every character the sanitiser must never let through raw. */
// eslint-disable-next-line no-control-regex
const RAW_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('safeText', () => {
  test('turns controls, line breaks and bidi characters into visible escapes', () => {
    expect(safeText('a\u001b[2Jb')).toBe('a\\x1b[2Jb');
    expect(safeText('\u001b]0;title\u0007')).toBe('\\x1b]0;title\\x07');
    expect(safeText('\u001b]8;;http://x\u001b\\link')).toBe('\\x1b]8;;http://x\\x1b\\link');
    expect(safeText('a\nb\rc\td')).toBe('a\\nb\\rc\\td');
    expect(safeText('x\u202ey\u2028z\u2066\u007f\u009b')).toBe('x\\u202ey\\u2028z\\u2066\\x7f\\x9b');
  });

  test('leaves ordinary text, accents and emoji alone', () => {
    expect(safeText('Block bots: café 🚫 (id-1)')).toBe('Block bots: café 🚫 (id-1)');
  });

  test('no unsafe character survives, for any string', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => !RAW_UNSAFE.test(safeText(text))));
  });
});

describe('markdownText', () => {
  const hostile = '<summary>x\n\n# h\n![img](http://x) @org/team *b* | c';

  test('adds no structure: one line, HTML escaped, headings, images, links, tables and mentions neutralised', () => {
    const out = markdownText(hostile);
    expect(out).not.toMatch(/[\n\r<>]/);
    expect(out).toBe('&lt;summary&gt;x # h !\\[img\\](`http://x)` `@org/team` \\*b\\* \\| c');
  });

  test('a leading heading, list marker or number starts nothing', () => {
    expect(markdownText('# h')).toBe('\\# h');
    expect(markdownText('- a')).toBe('\\- a');
    expect(markdownText('1. a')).toBe('1\\. a');
    expect(markdownText('+ a')).toBe('\\+ a');
  });

  test('bare links lose their link', () => {
    expect(markdownText('see www.evil.example')).toBe('see `www.evil.example`');
  });

  test('any string stays on one line with no raw HTML, control or unescaped pipe', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const out = markdownText(text).replaceAll('<span>$</span>', '$');
        return !RAW_UNSAFE.test(out) && !/[<>\n\r]/.test(out) && !/(^|[^\\])(\\\\)*\|/.test(out);
      }),
    );
  });
});

describe('markdownHtml', () => {
  test('HTML escaped on one line, no backslashes added, mentions neutralised', () => {
    expect(markdownHtml('<b>x</b>\n\n# h @team "q"')).toBe('&lt;b&gt;x&lt;/b&gt; # h <code>@team</code> &quot;q&quot;');
  });
});

describe('csvCell', () => {
  test.each(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'])('prefixes %j with a quote', (cell) => {
    expect(csvCell(cell, true)).toBe(`'${cell}`);
  });

  test('leaves other cells, and every cell when formula escaping is off', () => {
    expect(csvCell('https://cdn.example/a.js', true)).toBe('https://cdn.example/a.js');
    expect(csvCell('=1+1', false)).toBe('=1+1');
  });
});

describe('workflow command escaping', () => {
  test('data escapes %, CR and LF; properties also : and ,', () => {
    expect(workflowCommandData('50%\r\n::add-mask::x')).toBe('50%25%0D%0A::add-mask::x');
    expect(workflowCommandProperty('a:b,c%')).toBe('a%3Ab%2Cc%25');
  });
});
