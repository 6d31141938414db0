// The classes of values of the duckdb engine (src/replay/duckdb/value-classes.ts), without
// DuckDB: each value as DuckDB hands it over is read as the js reader reads it (numbers written
// otherwise and objects where text belongs are odd, a path's query string joins the query, the
// masking and the normalising apply), and values share a class exactly when every leaf on their
// field gives them the same verdict and their accounting is the same.
import { leafVerdict } from '../../../src/evaluate/leaf.js';
import { ABSENT, ODD, ValueClasses } from '../../../src/replay/duckdb/value-classes.js';
import { isSecretName } from '../../../src/replay/redact.js';
import type { NormalRule } from '../../../src/semantics/model.js';
import { compileProgram } from '../../../src/semantics/program.js';

const rule = (name: string, children: NormalRule['conditions']['children'][number]['children']): NormalRule =>
  ({ name, description: '', status: 'active', actions: ['hardBlock'], conditions: { operator: '$and', children: [{ operator: '$and', children }] } }) as NormalRule;

const RULES: NormalRule[] = [
  rule('login', [{ conditionType: 'path', operator: '$startsWith', value: '/login' }]),
  rule('bots', [{ conditionType: 'userAgent', operator: '$re', value: ['(?=.*bot)bot-[0-9]+'] }]),
  rule('monitor', [{ conditionType: 'header', fieldOption: 'x-monitor', operator: '$exists' }, { conditionType: 'header', fieldOption: 'cookie', operator: '$eq', value: '[redacted]' }]),
  rule('page', [{ conditionType: 'queryParam', fieldOption: 'page', operator: '$eq', value: '2' }]),
  rule('asn', [{ conditionType: 'socketIpASN', operator: '$eq', value: '13335' }]),
];

function classes(fieldsRead: string[] = []): ValueClasses {
  return new ValueClasses(compileProgram([RULES]), { isSecret: isSecretName, fieldsRead: new Set(fieldsRead) as never });
}

it('makes odd the texts JavaScript would write otherwise, and objects where text belongs', () => {
  const values = classes();
  for (const raw of ['1000.0', '0.10', '1e3', '-0', '0012', '12345678901234567890', 'NaN', '-inf', 'Infinity', '{"a":1}', '[1,2]']) {
    expect([raw, values.value('asn', raw)]).toEqual([raw, ODD]);
  }
  for (const raw of ['13335', 'AS13335', '7922', 'true', '198.51.100.7']) expect(values.value('asn', raw)).not.toBe(ODD);
});

it('reads maps as the js reader does: numbers a double holds exactly, lists joined, null values and fractions odd', () => {
  const values = classes();
  expect(values.value('headers', '{"x-monitor":1,"cookie":"sid=1"}')).not.toBe(ODD);
  expect(values.value('headers', '{"x-monitor":["a","b"]}')).not.toBe(ODD);
  expect(values.value('headers', '{"x-monitor":1.5}')).toBe(ODD);
  expect(values.value('headers', '{"x-monitor":null}')).toBe(ODD);
  expect(values.value('headers', '[1]')).toBe(ODD);
});

it('masks and normalises before asking the leaves: the cookie masked whole, capitals in header names, a country upper-cased', () => {
  const values = classes();
  const id = values.value('headers', '{"X-Monitor":"1","Cookie":"sid=secret"}');
  const { part } = values.of('headers').classes[id] as { part: { headers?: Record<string, string> } };
  expect(part.headers).toEqual({ 'X-Monitor': '1', Cookie: '[redacted]' });
  expect(leafVerdict(RULES[2]?.conditions.children[0]?.children[1] as never, part)).toBe(true);
  const country = values.of('country').classes[values.value('country', ' fr ')];
  expect(country?.part).toEqual({ country: 'FR' });
  expect(values.of('country').classes[values.value('country', 'FRA')]?.unusable).toBe(true);
});

it('joins a path\'s query string to the query, masked, and keeps the path\'s own part for the path', () => {
  const values = classes();
  const query = values.of('query').classes[values.value('query', null, '/login?page=2&token=abc')];
  expect(query?.part).toEqual({ query: { page: '2', token: '[redacted]' } });
  expect(values.value('query', '{"page":"3"}', '/login?page=2')).toBe(values.value('query', '{"page":"3"}'));
  expect(values.of('path').classes[values.value('path', '/login?page=2')]?.part).toEqual({ path: '/login' });
});

it('gives values one class exactly when every leaf on the field agrees', () => {
  const values = classes();
  expect(values.value('path', '/login')).toBe(values.value('path', '/login/x'));
  expect(values.value('path', '/login')).not.toBe(values.value('path', '/about'));
  expect(values.value('path', '/about')).toBe(values.value('path', '/search'));
  expect(values.value('userAgent', 'bot-1')).toBe(values.value('userAgent', 'bot-22'));
  expect(values.value('userAgent', 'bot-1')).not.toBe(values.value('userAgent', 'Mozilla'));
  // A field no leaf reads: one class for its usable values.
  expect(values.value('domain', 'a.example')).toBe(values.value('domain', 'b.example'));
});

it('marks lacking what a touched rule reads in a form no rule matches; absent is class 0', () => {
  const values = classes(['asn']);
  expect(values.of('asn').classes[values.value('asn', 'unknown')]?.lacking).toBe(true);
  expect(values.of('asn').classes[values.value('asn', '13335')]?.lacking).toBe(false);
  expect(values.of('asn').classes[ABSENT]?.lacking).toBe(true);
});
