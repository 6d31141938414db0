// No untrusted text becomes a workflow command, judged the way the GitHub Actions runner reads
// a step's output (test/helpers/runner-grammar.ts, written from the runner's code): lines end at
// LF, CR or CRLF, leading .NET white space (NEL, U+2028, U+00A0, …) is trimmed, `##[` counts
// anywhere. Hostile strings from fast-check go through the guard and through the real outputs
// that carry third-party text raw: script ids in `scripts report --format csv` and `scripts diff`,
// test names in JUnit, rule names in `plan`.
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { stringify } from 'yaml';
import { guardWorkflowCommands, writeWorkflowCommand } from '../../src/cli/workflow-guard.js';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runnerCommands, runnerLines } from '../helpers/runner-grammar.js';
import { rule } from '../plan/fixtures.js';

/** Pieces of an attack on the runner's grammar: every line start and white space it knows, and commands. */
const PIECES = [
  '::', ':', 'add-mask::secret', 'warning title=forged::x', 'stop-commands::t0k', 'error file=a.yaml,line=1::e',
  '\r', '\n', '\r\n', '\u0085', '\u2028', '\u2029', '\u00a0', ' ', '\t', '\u3000', '\u000b', '\ufeff',
  '##[', ']', 'x', '%0A', '#',
];
const hostile = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 14 }).map((pieces) => `n${pieces.join('')}`);
/** Hostile text that always holds one command at a line start the runner knows, after some of its white space. */
const attack = fc
  .tuple(hostile, fc.constantFrom('\r', '\r\n', '\n'), fc.array(fc.constantFrom(' ', '\t', '\u0085', '\u00a0', '\u2028', '\u2029', '\u3000'), { maxLength: 3 }), fc.constantFrom('::add-mask::secret', '::warning title=forged::x', '::stop-commands::t0k', '##[error]old'), hostile)
  .map(([before, lineEnd, space, command, after]) => `${before}${lineEnd}${space.join('')}${command}${lineEnd}${after}`);

describe('the runner-grammar helper', () => {
  test('reads lines and commands as the runner does', () => {
    expect(runnerLines('a\rb\r\nc\nd\u2028e\u0085f\n')).toEqual(['a', 'b', 'c', 'd\u2028e\u0085f']);
    expect(runnerCommands('x\r\u0085\u00a0::add-mask::s\nplain ##[warning]old\n\\::error::no\n')).toEqual([
      { command: 'add-mask', properties: {}, data: 's', line: '\u0085\u00a0::add-mask::s' },
      { command: 'warning', properties: {}, data: 'old', line: 'plain ##[warning]old' },
    ]);
    expect(runnerCommands('::warning file=a%2Cb.yaml,line=3,col=4,title=t%3Ax::m%0Aore\n')[0]).toEqual({
      command: 'warning', properties: { file: 'a,b.yaml', line: '3', col: '4', title: 't:x' }, data: 'm\nore', line: '::warning file=a%2Cb.yaml,line=3,col=4,title=t%3Ax::m%0Aore',
    });
  });
});

function guarded(chunks: readonly string[]): string {
  const sink = new PassThrough();
  const out: Buffer[] = [];
  sink.on('data', (chunk: Buffer) => out.push(chunk));
  const stream = guardWorkflowCommands(sink);
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  return Buffer.concat(out).toString('utf8');
}

describe('the stream guard under the runner grammar', () => {
  test('CR, CRLF, NEL, U+2028 and .NET white space never let a command through, in any chunks', () => {
    fc.assert(
      fc.property(hostile, fc.array(fc.nat(60), { maxLength: 4 }), (text, cuts) => {
        const points = [...new Set(cuts.map((c) => Math.min(c, text.length)))].sort((a, b) => a - b);
        const chunks = [0, ...points].map((start, i) => text.slice(start, points[i] ?? text.length)).filter((c) => c !== '');
        const out = guarded(chunks);
        expect(runnerCommands(out)).toEqual([]);
        // Nothing but the visible defusing changed.
        expect(out.replace(/\\(?=::)/g, '').replace(/#\\u0023\[/g, '##[')).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  test('an annotation written after text left mid-line still starts its own line', () => {
    const sink = new PassThrough();
    const out: Buffer[] = [];
    sink.on('data', (chunk: Buffer) => out.push(chunk));
    const stream = guardWorkflowCommands(sink);
    stream.write('progress: ');
    writeWorkflowCommand(stream, '::warning file=a.yaml,line=1,col=1::w');
    stream.end();
    expect(runnerCommands(Buffer.concat(out).toString('utf8')).map((c) => c.line)).toEqual(['::warning file=a.yaml,line=1,col=1::w']);
  });

  test('the forged annotations of the issue are defused', () => {
    for (const attack of ['u\r::warning title=forged::x\r', 'u\r\n::add-mask::s', 'u\n\u0085::stop-commands::t', 'u\n\u2028::error::e', 'u\r\u00a0 ::warning::w']) {
      expect(runnerCommands(guarded([attack]))).toEqual([]);
    }
  });
});

describe('hostile text through the real outputs under GitHub Actions', () => {
  let emu: TestEmulator;
  let project: string;
  const REPORT = ['scripts', 'report', '--app-id', 'app-demo', '--tld', 'shop.example.com', '--from', '60d'];

  beforeAll(async () => {
    emu = await startTestEmulator({ generateScripts: 2, randomSeed: 7 });
    project = await mkdtemp(path.join(tmpdir(), 'botrules-runner-grammar-'));
    await mkdir(path.join(project, 'rules'));
    await mkdir(path.join(project, 'tests'));
    await writeFile(path.join(project, 'rules', 'main.yaml'), stringify({ rules: [rule('Block bots')] }));
    expect((await cli([...REPORT, '--out', 'old.json'])).code).toBe(0);
  });

  afterAll(async () => {
    await emu.close();
    await rm(project, { recursive: true, force: true });
  });

  function cli(argv: string[]) {
    return runCli(argv, { cwd: project, env: { ...emu.env, GITHUB_ACTIONS: 'true', NO_COLOR: '1' } });
  }

  /** Neither stream carries a command botrules did not make (the runner reads each on its own). */
  function expectNoForeignCommand(result: { stdout: string; stderr: string }, own: readonly string[] = []): void {
    expect(runnerCommands(result.stdout)).toEqual([]);
    expect(runnerCommands(result.stderr).map((c) => c.command).filter((c) => !own.includes(c))).toEqual([]);
  }

  test('script ids in scripts report (csv, text, markdown) and scripts diff', async () => {
    const template = emu.emulator.scripts();
    await fc.assert(
      fc.asyncProperty(attack, async (text) => {
        emu.emulator.replaceScripts(template.map((record, i) => ({ ...record, id: `${text}${i}`, vendor: text })));
        for (const format of ['csv', 'text', 'markdown']) expectNoForeignCommand(await cli([...REPORT, '--format', format]));
        expect((await cli([...REPORT, '--out', 'new.json'])).code).toBe(0);
        for (const format of ['text', 'markdown']) expectNoForeignCommand(await cli(['scripts', 'diff', 'old.json', 'new.json', '--format', format]));
      }),
      { numRuns: 12 },
    );
  });

  test('test names in JUnit and in failure annotations', async () => {
    await fc.assert(
      fc.asyncProperty(attack, async (name) => {
        const quoted = `"${[...name].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`;
        await writeFile(path.join(project, 'tests', 'a.yaml'), `tests:\n  - name: ${quoted}\n    request: { path: /x }\n    expect: { rule: "Block bots" }\n`);
        const junit = await cli(['test', '--format', 'junit']);
        expect(junit.stdout).toContain('<testcase');
        expectNoForeignCommand(junit, ['error']);
        expect(runnerCommands(junit.stderr).every((c) => c.data.startsWith('test "n'))).toBe(true);
      }),
      { numRuns: 12 },
    );
  });

  test('live rule names in plan (text and markdown)', async () => {
    await fc.assert(
      fc.asyncProperty(attack, async (name) => {
        emu.emulator.replaceRules([{ ...rule('Block bots'), description: name }, { ...rule(name), description: 'unmanaged' }]);
        for (const format of ['text', 'markdown']) {
          const result = await cli(['plan', '--format', format]);
          expect(result.stderr).not.toContain('internal error');
          // operator-matrix's coverage line (the rule files read a path) is botrules' own notice.
          expectNoForeignCommand(result, ['notice']);
          expect(runnerCommands(result.stderr).map((c) => [c.properties.title, c.data.slice(0, 24)]))
            .toEqual([['botrules operator-matrix', 'operator-matrix: checked']]);
        }
      }),
      { numRuns: 12 },
    );
  });
});
