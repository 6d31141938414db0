import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadYamlFile, parseYamlText, MAX_ALIAS_COUNT } from '../../src/io/yaml-source.js';
import { schemaValidator } from '../../src/rules/schemas.js';
import { writeTree } from '../rules/tree.js';

const file = 'x.yaml';
const TEXT = ['top:', '  list:', '    - a', '    - { k: v }', '  empty:', 'other: 1', ''].join('\n');

describe('parseYamlText', () => {
  it('locates values, keys, list items and the nearest existing ancestor', () => {
    const source = parseYamlText(TEXT, { displayPath: file });
    expect(source.problems).toEqual([]);
    expect(source.value).toEqual({ top: { list: ['a', { k: 'v' }], empty: null }, other: 1 });
    expect(source.locate(['top', 'list', 0])).toEqual({ line: 3, col: 7 });
    expect(source.locate(['top', 'list', 1, 'k'])).toEqual({ line: 4, col: 12 });
    expect(source.locate(['top', 'list', 1, 'k'], { key: true })).toEqual({ line: 4, col: 9 });
    expect(source.locate(['top', 'empty'])).toEqual({ line: 5, col: 3 });
    expect(source.locate(['top', 'missing', 'deeper'])).toEqual({ line: 2, col: 3 });
    expect(source.problemAt(['other'], 'm')).toEqual({ file, line: 6, col: 8, message: 'm' });
  });

  it('reports every YAML error with its own line, without the parser excerpt', () => {
    const source = parseYamlText('a: 1\na: 2\nb: [1, 2\nc: 3\n', { displayPath: file });
    expect(source.value).toBeUndefined();
    expect(source.problems[0]).toEqual({ file, line: 2, col: 1, message: 'duplicate key "a": a key may appear only once in a mapping' });
    expect(source.problems.length).toBeGreaterThan(1);
    for (const p of source.problems) expect(p.message).not.toContain('\n');
    expect(source.isSchemaValid([])).toBe(false);
  });

  it('rejects a second document and tab indentation', () => {
    expect(parseYamlText('a: 1\n---\nb: 2\n', { displayPath: file }).problems[0]?.message).toMatch(/more than one YAML document/);
    expect(parseYamlText('a:\n\t- 1\n', { displayPath: file }).problems[0]).toMatchObject({ line: 2, message: expect.stringMatching(/tabs/) });
  });

  it('fails fast on an alias bomb and points at the first alias', () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 12; i += 1) levels.push(`l${i}: &l${i} [${Array(10).fill(i === 1 ? '*a' : `*l${i - 1}`).join(', ')}]`);
    const source = parseYamlText(`${levels.join('\n')}\n`, { displayPath: file });
    expect(source.value).toBeUndefined();
    expect(source.problems).toEqual([
      { file, line: 2, col: 10, message: `YAML aliases expand too much (more than ${MAX_ALIAS_COUNT} alias uses); write the values out instead` },
    ]);
  });

  it('still allows a few aliases', () => {
    const source = parseYamlText('base: &b { k: v }\nuse: [*b, *b]\n', { displayPath: file });
    expect(source.problems).toEqual([]);
    expect(source.value).toEqual({ base: { k: 'v' }, use: [{ k: 'v' }, { k: 'v' }] });
  });

  it('reports an alias without an anchor', () => {
    expect(parseYamlText('a: 1\nb: *nope\n', { displayPath: file }).problems).toEqual([
      { file, line: 2, col: 4, message: 'an alias (*name) refers to an anchor (&name) that is not defined before it' },
    ]);
  });

  it('maps schema errors: an unknown key at the key, a missing key at its mapping', () => {
    const source = parseYamlText('apps:\n  - name: a\n    secret: x\n', { displayPath: file, validate: schemaValidator('config') });
    expect(source.problems).toEqual([
      { file, line: 2, col: 5, message: 'missing "rulesDir" in item 1 of apps' },
      { file, line: 3, col: 5, message: 'unknown key "secret" in item 1 of apps (allowed: name, rulesDir, tokenEnv, unmanaged, service, maxDeletes, maxChanges, maxNewlyBlocked)' },
    ]);
    expect(source.isSchemaValid(['apps', 0])).toBe(false);
    expect(source.isSchemaValid(['apps', 0, 'name'])).toBe(true);
  });
});

describe('reading files', () => {
  it('refuses a file above the size limit before reading it', async () => {
    const dir = writeTree({ 'big.yaml': 'a: 1\n'.repeat(300) });
    const source = await loadYamlFile(join(dir, 'big.yaml'), { displayPath: 'big.yaml', maxBytes: 1000 });
    expect(source.problems).toEqual([{ file: 'big.yaml', line: 1, col: 1, message: 'the file is too large: 1.5 KiB (1500 bytes); the limit is 1000 bytes' }]);
  });

  it('reads files of every size up to the limit whole, and refuses larger ones by their size', async () => {
    // Around the size of the reused read buffer (64 KiB) and around the limit; `a: xxx…\n` is `size` bytes.
    const sizes = [5, 65_535, 65_536, 65_537, 200_000, 1_048_576, 1_048_577, 3_000_000];
    const dir = writeTree(Object.fromEntries(sizes.map((size) => [`f${size}.yaml`, `a: ${'x'.repeat(size - 4)}\n`])));
    for (const size of sizes) {
      const source = await loadYamlFile(join(dir, `f${size}.yaml`), { displayPath: 'f.yaml' });
      if (size <= 1_048_576) expect([source.problems, (source.value as { a: string }).a.length]).toEqual([[], size - 4]);
      else expect(source.problems).toEqual([{ file: 'f.yaml', line: 1, col: 1, message: expect.stringContaining(`(${size} bytes); the limit is 1.0 MiB`) }]);
    }
  });

  /** The bytes as a file, read as every YAML file is. */
  async function loadBytes(bytes: Buffer) {
    const dir = writeTree({});
    writeFileSync(join(dir, file), bytes);
    return loadYamlFile(join(dir, file), { displayPath: file });
  }

  it('names the line, column and byte of invalid UTF-8', async () => {
    const bytes = Buffer.concat([Buffer.from('a: ok\nb: "é'), Buffer.from([0xc3, 0x28]), Buffer.from('"\n')]);
    expect((await loadBytes(bytes)).problems).toEqual([
      { file, line: 2, col: 6, message: 'the file is not valid UTF-8 (byte 0xC3); save it with UTF-8 encoding' },
    ]);
  });

  it('names a character cut short at the end of the file', async () => {
    const bytes = Buffer.concat([Buffer.from('a: x'), Buffer.from([0xe2, 0x82])]);
    expect((await loadBytes(bytes)).problems[0]).toMatchObject({ line: 1, col: 5, message: expect.stringContaining('0xE2') });
  });

  it('accepts a byte-order mark', async () => {
    expect((await loadBytes(Buffer.from('\uFEFFa: 1\n'))).value).toEqual({ a: 1 });
  });

  it('reports an unreadable path as a problem', async () => {
    const dir = writeTree({});
    writeFileSync(join(dir, 'present.yaml'), 'a: 1\n');
    const source = await loadYamlFile(join(dir, 'absent.yaml'), { displayPath: 'absent.yaml' });
    expect(source.problems).toEqual([{ file: 'absent.yaml', line: 1, col: 1, message: 'cannot read the file: it does not exist' }]);
  });
});
