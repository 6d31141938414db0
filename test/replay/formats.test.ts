// Reading one log line: NDJSON objects, CSV rows under a header row, access-log lines, and
// the fixed reasons a line is skipped for. Hostile text from a log reaches no terminal raw.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { accessLogLine, csvCells, csvColumns, csvLine } from '../../src/replay/formats.js';
import { ndjsonLine } from '../helpers/log-lines.js';
import { botrules, replayProject } from './fixtures.js';

describe('NDJSON', () => {
  it('reads the request fields, numbers as text, header lists joined, unknown keys ignored', () => {
    expect(ndjsonLine('{"path":"/a","asn":13335,"headers":{"accept":["a","b"]},"status":200}')).toEqual({ request: { path: '/a', asn: '13335', headers: { accept: 'a, b' } } });
  });

  it.each([
    ['{"path":', 'not JSON'],
    ['[1,2]', 'not a JSON object'],
    ['{"path":{"a":1}}', '"path" is not text'],
    ['{"headers":{"a":{"b":1}}}', '"headers" is not an object of texts'],
  ])('skips %s: %s', (line, reason) => {
    expect(ndjsonLine(line)).toEqual({ skip: reason });
  });

  it('moves a query string from the path into the parameters, given parameters winning', () => {
    expect(ndjsonLine('{"path":"/s?q=a%20b&p=1","query":{"p":"2"}}')).toEqual({ request: { path: '/s', query: { q: 'a b', p: '2' } } });
  });
});

describe('CSV', () => {
  it('reads quoted cells with doubled quotes and commas', () => {
    expect(csvCells('a,"b,""c""",,"d"')).toEqual(['a', 'b,"c"', '', 'd']);
    expect(csvCells('"open')).toBeUndefined();
    expect(csvCells('"a"b')).toBeUndefined();
  });

  it('maps header names to fields; dotted names to headers and parameters; the rest ignored', () => {
    const columns = csvColumns('path,headers.X-Client,query.q,custom.tier,status');
    expect(columns).toEqual([{ text: 'path' }, { map: 'headers', name: 'X-Client' }, { map: 'query', name: 'q' }, { map: 'custom', name: 'tier' }, undefined]);
    expect(csvLine('/a,yes,,gold,200', columns ?? [])).toEqual({ request: { path: '/a', headers: { 'X-Client': 'yes' }, custom: { tier: 'gold' } } });
    expect(csvLine('/a,yes', columns ?? [])).toEqual({ skip: 'CSV row with a different number of cells than the header' });
  });
});

describe('access logs', () => {
  it('reads the common format without referer and agent', () => {
    expect(accessLogLine('::1 - - [10/Oct/2026:13:55:36 -0700] "DELETE /a?b=1 HTTP/1.0" 204 -')).toEqual({ request: { ip: '::1', method: 'DELETE', path: '/a', query: { b: '1' } }, carriage: { partialHeaders: [], noCustom: true } });
  });

  it('unescapes quotes and \\xHH in the combined fields', () => {
    expect(accessLogLine('1.2.3.4 - - [t] "GET / HTTP/1.1" 200 1 "-" "a \\"b\\" \\x41"')).toEqual({ request: { ip: '1.2.3.4', method: 'GET', path: '/', userAgent: 'a "b" A' }, carriage: { partialHeaders: ['referer'], noCustom: true } });
  });
});

it('prints hostile text from a log with visible escapes, in text and Markdown', async () => {
  const project = replayProject();
  const agent = 'evil\u001b[31mred\u202eodd\u0085';
  writeFileSync(path.join(project, 'evil.ndjson'), `${JSON.stringify({ path: '/login', userAgent: agent, headers: { '@team': 'https://x.example' } })}\n`);
  const text = await botrules(project, 'replay', '--live', 'live.json', 'evil.ndjson');
  expect(text.stdout.split('\n').filter((line) => line.includes('e.g.'))).toEqual([
    '        e.g. evil.ndjson:1 {"path":"/login","userAgent":"evil\\u001b[31mred\\u202eodd\\x85","headers":{"@team":"https://x.example"}}',
  ]);
  const markdown = await botrules(project, 'replay', '--live', 'live.json', '--format', 'markdown', 'evil.ndjson');
  expect(markdown.stdout.split('\n').filter((line) => line.startsWith('evil.ndjson'))).toEqual([
    'evil.ndjson:1 {"path":"/login","userAgent":"evil\\u001b[31mred\\u202eodd\\x85","headers":{"@team":"https://x.example"}}',
  ]);
  expect(['\u001b', '\u202e', '\u0085'].filter((raw) => `${text.stdout}${markdown.stdout}`.includes(raw))).toEqual([]);
});
