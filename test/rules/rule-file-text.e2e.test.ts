// A rule read from a file must not keep the file's text alive: the YAML parser's strings are
// slices of that text, and a plan holds every rule through its analyses, so 5,000 rule files'
// texts stayed in memory for the whole run (bench/README.md, "Plan and apply (whole process)").
// Checked in a heap snapshot of a small process of the build (the snapshot collects garbage
// first, then lists every string alive), not of this test's own large heap.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const RULE_FILE_MODULE = pathToFileURL(resolve('dist/rules/rule-file.js')).href;

// The child reads one rule file whose every text is unique to this run, keeps only its rules,
// and answers which of the texts a heap snapshot still holds.
const CHILD = `
import { randomUUID } from 'node:crypto';
import { getHeapSnapshot } from 'node:v8';
const { parseRuleFile } = await import(${JSON.stringify(RULE_FILE_MODULE)});
const id = randomUUID();
let bytes = new TextEncoder().encode([
  '# header ' + id + ' that only the text of the file holds',
  'rules:',
  '  - name: Block scrapers of the catalogue ' + id,
  '    actions: [hardBlock]',
  '    conditions:',
  '      operator: $or',
  '      children:',
  '        - operator: $and',
  '          children:',
  '            - { conditionType: userAgent, operator: $contains, value: "scraper-of-catalogue-' + id + '" }',
  '',
].join('\\n'));
const rules = parseRuleFile(bytes, 'rules/010-scrapers.yaml').rules;
bytes = undefined;
// The last regular expression run keeps its subject (RegExp.input): the parser's last one ran on the text.
/x/.exec('x');
const chunks = [];
for await (const chunk of getHeapSnapshot()) chunks.push(String(chunk));
const heap = chunks.join('');
const holds = (text) => heap.includes(text);
process.stdout.write(JSON.stringify({
  rules: rules.length,
  name: holds('Block scrapers of the catalogue ' + id),
  value: holds('scraper-of-catalogue-' + id),
  fileText: holds('# header ' + id),
}));
`;

describe('rules read from a file', () => {
  it('keep their own strings alive but none of the text of the file', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', CHILD]);
    // The rule's own strings are in the snapshot (the control: it does list them); the file's
    // text, which a slice of it would keep whole, is not.
    expect(JSON.parse(stdout)).toEqual({ rules: 1, name: true, value: true, fileText: false });
  });
});
