// A rule read from a file must not keep the file's text alive: the YAML parser's strings are
// slices of that text, and a plan holds every rule through its analyses, so 5,000 rule files'
// texts stayed in memory for the whole run (bench/README.md, "Plan and apply (whole process)").
// Checked in a heap snapshot of a small process of the build (the snapshot collects garbage
// first, then lists every string alive), not of this test's own large heap.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { tempDir } from '../helpers/temp.js';

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

// The child writes two rule files whose leaves hold the same value, unique to this run, reads
// them as a rules directory (one table of strings for all files) and as two files read alone
// (a table each), and answers how many strings of that value a heap snapshot holds after each.
const LOAD_MODULE = pathToFileURL(resolve('dist/rules/load.js')).href;
const SHARED_CHILD = `
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getHeapSnapshot } from 'node:v8';
const { loadRules } = await import(${JSON.stringify(LOAD_MODULE)});
const { readRuleFile } = await import(${JSON.stringify(RULE_FILE_MODULE)});
// Flat from the start (not a concatenation that a comparison would flatten later): one string.
const value = JSON.parse(JSON.stringify('shared-value-' + randomUUID()));
const dir = process.env.RULES_DIR;
for (const name of ['a', 'b']) {
  writeFileSync(join(dir, name + '.yaml'), [
    'rules:',
    '  - name: Rule ' + name,
    '    actions: [hardBlock]',
    '    conditions:',
    '      operator: $or',
    '      children:',
    '        - operator: $and',
    '          children:',
    '            - { conditionType: userAgent, operator: $contains, value: "' + value + '" }',
    '',
  ].join('\\n'));
}
async function copies() {
  /x/.exec('x');
  const chunks = [];
  for await (const chunk of getHeapSnapshot()) chunks.push(String(chunk));
  const heap = JSON.parse(chunks.join(''));
  const meta = heap.snapshot.meta;
  const width = meta.node_fields.length;
  const type = meta.node_fields.indexOf('type');
  const name = meta.node_fields.indexOf('name');
  const stringType = meta.node_types[0].indexOf('string');
  const index = heap.strings.indexOf(value);
  let count = 0;
  for (let n = 0; n < heap.nodes.length; n += width) if (heap.nodes[n + type] === stringType && heap.nodes[n + name] === index) count += 1;
  return count;
}
const loaded = (await loadRules(dir, { cwd: dir })).rules;
const together = await copies();
const alone = ['a', 'b'].flatMap((name) => readRuleFile(join(dir, name + '.yaml'), name + '.yaml').rules);
loaded.length = 0;
const apart = await copies();
process.stdout.write(JSON.stringify({ rules: [loaded.length, alone.length], together, apart }));
`;

describe('rules read from a rules directory', () => {
  it('hold one copy of a string that several files write', async () => {
    const env = { ...process.env, RULES_DIR: tempDir() };
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', SHARED_CHILD], { env });
    // Besides the child's own `value`: read as a directory, both rules' leaves hold one copy;
    // read alone, each file's rules hold their own (the control: the count does see copies).
    expect(JSON.parse(stdout)).toEqual({ rules: [0, 2], together: 1 + 1, apart: 1 + 2 });
  });
});
