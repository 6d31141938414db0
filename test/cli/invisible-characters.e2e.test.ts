// Invisible and format characters (Unicode category Cf, the tag block) through the real binary:
// a plan never shows two identical lines for a real change (declared "/\u2060admin" against a
// live "/admin" would print the same, yet the block rule stops matching), and `import` writes
// them as `\u` escapes in double-quoted YAML scalars that read back as the same value.
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { parse } from 'yaml';
import { safeText } from '../../src/render/sanitise.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { rule, tempProject, writeRules, type Project } from '../apply/fixtures.js';

const BIN = path.resolve('bin/botrules.js');
const run = promisify(execFile);

/** The characters of the issue: zero-width, word joiner, invisible operators, BOM, soft hyphen, tags, bidi, separators. */
const INVISIBLES = ['\u200b', '\u200c', '\u200d', '\u2060', '\u2061', '\u2062', '\u2063', '\u2064', '\ufeff', '\u00ad', '\u{e0041}', '\u{e007f}', '\u202e', '\u2066', '\u2069', '\u2028', '\u2029', '\u180e'];
/** Any of them raw in output. */
const RAW_INVISIBLE = /[\p{Cf}\u{e0000}-\u{e007f}\u2028\u2029]/u;

const adminRule = (value: string) =>
  rule('Block admin', { conditions: { operator: '$or', children: [{ operator: '$and', children: [{ conditionType: 'path', operator: '$eq', value }] }] } });

let emu: TestEmulator;
let project: Project;

beforeAll(async () => {
  emu = await startTestEmulator({ seedRules: [{ ...adminRule('/admin'), ruleId: 'id-admin' } as never] });
  project = await tempProject();
});

afterAll(async () => {
  await emu.close();
  await project.close();
});

async function botrules(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const options = { cwd: project.dir, encoding: 'utf8' as const, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...emu.env }, timeout: 60_000 };
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], options);
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('invisible characters', () => {
  it('safeText shows every one of them as a visible escape, and tells apart texts that differ only by them', () => {
    for (const char of INVISIBLES) expect(safeText(`/${char}admin`)).not.toMatch(RAW_INVISIBLE);
    expect(safeText('/\u2060admin')).toBe('/\\u2060admin');
    expect(safeText('a\u{e0041}')).toBe('a\\u{e0041}');
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...INVISIBLES, 'a', '/'), { maxLength: 8 }), fc.array(fc.constantFrom(...INVISIBLES, 'a', '/'), { maxLength: 8 }), (x, y) => {
        const [a, b] = [x.join(''), y.join('')];
        expect(safeText(a)).not.toMatch(RAW_INVISIBLE);
        if (a !== b) expect(safeText(a)).not.toBe(safeText(b));
      }),
    );
  });

  it.each([['text'], ['markdown']])('plan %s: declared "/\\u2060admin" against live "/admin" shows two different lines', async (format) => {
    await writeRules(project.rulesDir, [{ ...adminRule('/\u2060admin'), ruleId: 'id-admin' } as never]);
    const { code, stdout } = await botrules(['plan', '--format', format]);
    expect(code).toBe(0);
    expect(stdout).not.toMatch(RAW_INVISIBLE);
    const changed = stdout.split('\n').filter((line) => line.includes('admin') && !line.includes('Block admin'));
    expect(changed.some((line) => line.includes('/\\u2060admin'))).toBe(true);
    expect(new Set(changed).size).toBe(changed.length);
  });

  it('import writes them as escapes in double-quoted scalars that read back as the same value', async () => {
    const value = `/${INVISIBLES.join('')}admin`;
    emu.emulator.replaceRules([{ ...adminRule(value), ruleId: 'id-admin', description: `d\u202e${value}` } as never]);
    const { code } = await botrules(['import', '--out', 'imported']);
    expect(code).toBe(0);
    const [file] = await readdir(path.join(project.dir, 'imported'));
    const text = await readFile(path.join(project.dir, 'imported', file ?? ''), 'utf8');
    expect(text).not.toMatch(RAW_INVISIBLE);
    expect(text.split('\n')).toContain(`    description: "d\\u202e/${INVISIBLES.map(yamlEscape).join('')}admin"`);
    const read = parse(text) as { rules: { description: string; conditions: { children: { children: { value: string }[] }[] } }[] };
    expect(read.rules[0]?.description).toBe(`d\u202e${value}`);
    expect(read.rules[0]?.conditions.children[0]?.children[0]?.value).toBe(value);
  });

  it('import --update writes them the same way, and the rules read back as the live ones', async () => {
    const value = `/x${INVISIBLES.join('')}`;
    await writeRules(project.rulesDir, [{ ...adminRule('/admin'), ruleId: 'id-admin' } as never]);
    emu.emulator.replaceRules([{ ...adminRule(value), ruleId: 'id-admin', description: `\u2028${value}` } as never]);
    const { code } = await botrules(['import', '--update']);
    expect(code).toBe(0);
    const [file] = await readdir(project.rulesDir);
    const text = await readFile(path.join(project.rulesDir, file ?? ''), 'utf8');
    expect(text).not.toMatch(RAW_INVISIBLE);
    expect(text).toContain(`"/x${INVISIBLES.map(yamlEscape).join('')}"`);
    const plan = await botrules(['plan', '--detailed-exitcode']);
    expect(plan.code).toBe(0);
  });
});

function yamlEscape(char: string): string {
  const code = char.codePointAt(0) as number;
  return code > 0xffff ? `\\U${code.toString(16).padStart(8, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}
