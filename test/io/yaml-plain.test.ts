// The plain-style reader reads what it accepts exactly as the `yaml` package's Document does
// (values and positions), and leaves everything else to the Document (src/io/yaml-plain.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateRules } from '../../src/emulator/generate-rules.js';
import { seededRandom } from '../../src/emulator/random.js';
import { ruleFileText } from '../../src/import/rule-file.js';
import { readPlainYaml } from '../../src/io/yaml-plain.js';
import { live } from '../helpers/rules.js';
import { compareReadings } from './yaml-plain-differential.js';

const root = join(import.meta.dirname, '..', '..');

describe('the plain-style YAML reader', () => {
  it('reads the example rule files as the Document does', () => {
    const dir = join(root, 'rules');
    const verdicts = readdirSync(dir).map((name) => compareReadings(readFileSync(join(dir, name), 'utf8')));
    expect(verdicts).toEqual(verdicts.map(() => 'same'));
  });

  it('reads every file `import` writes as the Document does', () => {
    const rules = generateRules(seededRandom(36), 300);
    const verdicts = rules.map((rule, i) => compareReadings(ruleFileText(live({ ...rule, ruleId: `r-${rule.name}` }, i))));
    expect(verdicts).toEqual(verdicts.map(() => 'same'));
  });

  it('reads the project files it accepts as the Document does', () => {
    for (const file of ['policies/trusted-traffic.yaml', 'tests/traffic.yaml', 'scripts-policy.yaml', 'action.yml', '.github/workflows/ci.yml']) {
      expect(() => compareReadings(readFileSync(join(root, file), 'utf8'))).not.toThrow();
    }
  });

  it.each([
    ['a: 1\nb: -0\nc: +12\nd: 007\ne: ~\nf: null\ng: True\nh: FALSE\ni: 1234567890123456\n'],
    ['a:\n- x\n- y\nb:\n  - [ 1, two, "3" ]\n  - {}\n  - []\n'],
    ['# c\n\nk: v # comment\n  # indented comment\nl:   # after the key\n    m: n\n'],
    ["a: 'it''s'\nb: \"q\\\"\\\\\\u00e9\\x41\\U0001F600\\n\"\nc: 'x' \nd: \"\"\n"],
    ['a: b: c\n'],
    ['a: x\n  y\n'],
    ['- a\n  b\n'],
    ['a: [ x,\n  y ]\n'],
    ['a: [ x, ]\n'],
    ['a: { k: v, k: w }\n'],
    ['a: 1\na: 2\n'],
    ['a: &x 1\nb: *x\n'],
    ['a: !!str 1\n'],
    ['a: |\n  text\n'],
    ['a: 1.5\nb: .inf\nc: 0x1F\nd: 1e3\n'],
    ['a: http://x.example/y?z=1\nb: 10.0.0.0/8\nc: 2001:db8::/32\n'],
    ['a: [ a:b, c ]\nb: { k: a:b }\n'],
    ['a: x#y\nb: "x" #c\nc: "x"#c\n'],
    ['a:\n  - b: 1\n    c:\n      - d\n  - e\n'],
    ['---\na: 1\n'],
    ['a: 1\n...\n'],
    ['  a: 1\n  b: 2\n'],
    ['a: 1\n b: 2\n'],
    ['"a": 1\n'],
    ['a:\tb\n'],
    ['a: b\r\nc: d\r\n'],
    ['__proto__: 1\n'],
    ['a: [ [ x ], { y: [ z ] } ]\n'],
    ['a: { b: }\n'],
    ['a: [ , ]\n'],
    ['- \n- a\n'],
    ['-\n  a: 1\n'],
    ['a: -\nb: - x\n'],
    ['a: x  \nb: y   # c\n'],
    ['a: \u00e9t\u00e9 \u4e2d\n'],
    ['a: "\\q"\n'],
    ['a: "\\uD800"\n'],
    ['a: ? x\n'],
    ['a: x\n# only a comment\n'],
    ['# only a comment\n'],
    [''],
    ['a: [x]y\n'],
    ['a: {k: v}\n'],
    ['a:  \n  - 1\n'],
    ['true: 1\n'],
    ['a: b\n- c\n'],
  ])('agrees with the Document on %j', (text) => {
    expect(() => compareReadings(text)).not.toThrow();
  });

  it('leaves anchors, tags, block scalars and multi-line values to the Document', () => {
    for (const text of ['a: &x 1\n', 'a: !t 1\n', 'a: |\n  t\n', 'a: x\n  y\n', 'a: [ x,\n  y ]\n', 'a: 1.5\n', 'a: 1\na: 2\n']) {
      expect(readPlainYaml(text)).toBeUndefined();
    }
  });
});
