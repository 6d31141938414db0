// The SARIF renderer: output that the SARIF 2.1.0 schema accepts, results that point at the
// right rule metadata, relative URIs, and untrusted text kept as exact data.
import { fileUri, renderSarif, sarifLog, type SarifModel } from '../../src/render/sarif/index.js';
import { sarifSchemaErrors } from './sarif-schema.js';

const MODEL: SarifModel = {
  rules: [{ id: 'invalid-file', description: 'A problem.' }, { id: 'shadowed-rule', description: 'Never decides.' }],
  results: [
    { ruleId: 'invalid-file', level: 'error', file: 'rules/a b.yaml', line: 3, col: 5, message: 'unknown key "bogus"' },
    { ruleId: 'shadowed-rule', level: 'warning', file: 'rules/x.yaml', line: 1, col: 1, message: 'rule "\u001b[2J\n::error::x\u202e" can never decide' },
    { ruleId: 'not-listed', level: 'note', file: 'tests/t.yaml', line: 0, col: 0, message: 'm' },
  ],
};

function rendered(model: SarifModel): { text: string; log: Record<string, unknown> } {
  let text = '';
  renderSarif(model, { write: (chunk: string) => (text += chunk) });
  return { text, log: JSON.parse(text) as Record<string, unknown> };
}

describe('SARIF output', () => {
  it('is valid SARIF 2.1.0 by the standard schema', () => {
    expect(sarifSchemaErrors(rendered(MODEL).log)).toEqual([]);
    expect(sarifSchemaErrors(sarifLog({ rules: [], results: [] }))).toEqual([]);
  });

  it('the schema check really checks', () => {
    const log = sarifLog(MODEL) as { runs: { results: { level: string }[] }[] };
    (log.runs[0]?.results[0] as { level: string }).level = 'fatal';
    expect(sarifSchemaErrors(log).join('\n')).toContain('/runs/0/results/0/level');
  });

  it('links each result to its rule by index, locates it with 1-based positions and relative URIs', () => {
    const run = (rendered(MODEL).log.runs as Record<string, unknown>[])[0] as { results: Record<string, unknown>[]; tool: { driver: { name: string; rules: { id: string }[] } } };
    expect(run.tool.driver.name).toBe('botrules');
    expect(run.tool.driver.rules.map((rule) => rule.id)).toEqual(['invalid-file', 'shadowed-rule']);
    expect(run.results.map((result) => result.ruleIndex)).toEqual([0, 1, undefined]);
    expect(run.results[0]?.locations).toEqual([{ physicalLocation: { artifactLocation: { uri: 'rules/a%20b.yaml' }, region: { startLine: 3, startColumn: 5 } } }]);
    expect((run.results[2]?.locations as { physicalLocation: { region: unknown } }[])[0]?.physicalLocation.region).toEqual({ startLine: 1, startColumn: 1 });
  });

  it('keeps untrusted text as exact data, with nothing that moves a terminal left raw', () => {
    const { text, log } = rendered(MODEL);
    const run = (log.runs as { results: { message: { text: string } }[] }[])[0];
    expect(run?.results[1]?.message.text).toBe('rule "\u001b[2J\n::error::x\u202e" can never decide');
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/);
    expect(text.split('\n').some((line) => line.startsWith('::'))).toBe(false);
  });

  it('writes file paths as URI references', () => {
    expect(fileUri('rules/a\\..\\..\\b.yaml')).toBe('rules/a%5C..%5C..%5Cb.yaml');
    expect(fileUri('rules/#1 100%.yaml')).toBe('rules/%231%20100%25.yaml');
  });
});
