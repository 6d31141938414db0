// `botrules test --format junit` checked against a published JUnit XML schema (Jenkins xUnit's
// junit-10.xsd, kept in test/fixtures/junit) with libxml2's own validator (xmllint, built to
// WebAssembly): passed and failed tests, several files, and hostile names and reasons.
import { readFileSync } from 'node:fs';
import { validateXML } from 'xmllint-wasm';
import { renderTestJunit } from '../../src/render/tests/junit.js';
import type { TestReason, TestResult } from '../../src/tests/run.js';
import type { Action } from '../../src/semantics/model.js';

const SCHEMA = readFileSync(new URL('../fixtures/junit/junit-10.xsd', import.meta.url), 'utf8');

function result(name: string, file: string, passed: boolean, reasons: TestReason[] = []): TestResult {
  return {
    test: { name, request: {}, expect: { rule: 'A' }, source: { file, line: 3, col: 5 } },
    app: 'default',
    passed,
    decidedBy: passed ? 'A' : undefined,
    actions: [],
    reasons,
  };
}

async function schemaErrors(xml: string): Promise<string[]> {
  const outcome = await validateXML({ xml: [{ fileName: 'results.xml', contents: xml }], schema: [SCHEMA] });
  return outcome.errors.map((error) => error.message);
}

function junit(results: readonly TestResult[]): string {
  let text = '';
  renderTestJunit(results, { write: (chunk: string) => (text += chunk) });
  return text;
}

describe('JUnit XML', () => {
  it('is valid by the JUnit schema, for passed and failed tests in several files', async () => {
    const xml = junit([
      result('passes', 'tests/a.yaml', true),
      result('fails', 'tests/a.yaml', false, [
        { kind: 'decided', expected: 'A', decidedBy: undefined, actions: [] },
        { kind: 'leaf', rule: 'A', matches: false, group: 0, leaf: 0, condition: { conditionType: 'httpMethod', operator: '$eq', value: 'POST' }, value: 'GET' },
      ]),
      result('other file', 'tests/b.yaml', true),
    ]);
    expect(await schemaErrors(xml)).toEqual([]);
    expect(xml).toContain('<testsuite name="tests/b.yaml" tests="1" failures="0" errors="0">');
  });

  it('stays valid XML with hostile names: markup, control characters, lone surrogates', async () => {
    const xml = junit([result('<x y="1">&amp; \u0000\u001b[2J \ud800 ]]>', 'tests/<a>.yaml', false, [{ kind: 'decided', expected: 'A', decidedBy: 'B', actions: ['</failure><testcase name="forged"/>\u0007' as Action] }])]);
    expect(await schemaErrors(xml)).toEqual([]);
    expect(xml).not.toContain('<testcase name="forged"/>');
  });

  it('stays valid with the figures of --coverage / --mutate as properties, hostile text included', async () => {
    let xml = '';
    renderTestJunit([result('passes', 'tests/a.yaml', true)], { write: (chunk: string) => (xml += chunk) }, [['mutation.score', '70.0%'], ['mutation.note', '<x/>\u0000 "quoted"']]);
    expect(await schemaErrors(xml)).toEqual([]);
    expect(xml).toContain('  <testsuite name="botrules test quality" tests="0" failures="0" errors="0">\n    <properties>\n      <property name="mutation.score" value="70.0%"/>\n');
  });

  it('the schema check really checks', async () => {
    const errors = await schemaErrors('<?xml version="1.0"?>\n<testsuites><testsuite name="x"><testcase/></testsuite></testsuites>\n');
    expect(errors.join('\n')).toMatch(/tests|name/);
  });
});
