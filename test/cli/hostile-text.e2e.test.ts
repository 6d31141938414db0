// Untrusted text through the real binary: live rule names and descriptions, rule file names
// and keys, script fields and server error bodies carry terminal escapes, workflow commands
// and Markdown structure. Whatever the command and format, no raw control character reaches
// the output, no line becomes a workflow command botrules did not make, Markdown gains no
// structure, and JSON keeps the data exact.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:https';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { rule } from '../plan/fixtures.js';
import { sharedCertificate, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runCli } from '../helpers/cli.js';

const BIN = path.resolve('bin/botrules.js');
const run = promisify(execFile);

/** Every attack in one string. */
const HOSTILE =
  'x\u001b[2J\u001b]0;pwned\u0007\u001b]8;;http://evil.example\u001b\\link\u001b]8;;\u001b\\' +
  '\n::error::injected\n::add-mask::x\n::stop-commands::t0k\n##[warning]old\rR\u202eE\u2028L\u009b31m' +
  '<summary>\n\n# h\n![img](http://x.example/i.png) @org/team';

// Raw bytes no output may carry (LF separates lines; CR only as CSV's record delimiter).
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

let emu: TestEmulator;
let project: string;

beforeAll(async () => {
  emu = await startTestEmulator({
    seedRules: [{ ...rule('Block bots'), description: HOSTILE }, { ...rule(HOSTILE), description: 'unmanaged' }],
    generateScripts: 3,
    randomSeed: 5,
  });
  project = await mkdtemp(path.join(tmpdir(), 'botrules-hostile-'));
  await mkdir(path.join(project, 'rules'));
  await writeFile(path.join(project, 'rules', 'main.yaml'), stringify({ rules: [{ ...rule('Block bots'), description: 'clean' }] }));
  await mkdir(path.join(project, 'bad'));
  await writeFile(path.join(project, 'bad', `f\n::error::file\u001b[2J\u202e.yaml`), `rules:\n  - name: x\n    "k\\e[2J\\n::error::key\\u202e": 1\n`);
});

afterAll(async () => {
  await emu.close();
  await rm(project, { recursive: true, force: true });
});

async function botrules(args: string[], env: Record<string, string> = emu.env): Promise<{ code: number; out: string; stdout: string }> {
  const options = { cwd: project, encoding: 'utf8' as const, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', GITHUB_ACTIONS: 'true', ...env }, timeout: 60_000 };
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], options);
    return { code: 0, out: stdout + stderr, stdout };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr, stdout: failed.stdout };
  }
}

function expectHarmless(text: string, { csv = false } = {}): void {
  expect(csv ? text.replace(/\r\n/g, '\n') : text).not.toMatch(RAW_CONTROL);
  for (const line of text.split('\n')) {
    if (line.trimStart().startsWith('::')) expect(line).toMatch(/^::(error|warning|notice) file=[^:]*,line=\d+,col=\d+(,title=botrules [a-z-]+)?::/);
    expect(line).not.toContain('##[');
  }
}

/** Markdown outside fenced code blocks (inside them nothing is structure). */
/** The Markdown outside code blocks and code spans (a span closes at a backtick run of its own length), where text is inert. */
function outsideCode(markdown: string): string {
  return markdown.replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1$/gm, '').replace(/(?<!`)(`+)(?!`)[^\n]*?(?<!`)\1(?!`)/g, '');
}

function expectNoMarkdownStructure(whole: string): void {
  const markdown = outsideCode(whole);
  expect(markdown).not.toMatch(/^\s*# h/m);
  expect(markdown).not.toMatch(/(^|[^\\])!\[img/);
  expect(markdown).not.toMatch(/(^|[^\\])\]\(/);
  // References and links from data are shown in code, where GitHub neither links nor notifies.
  const outsideCodeSpans = markdown.replace(/`[^`\n]*`|<code>.*?<\/code>/g, '');
  expect(outsideCodeSpans).not.toContain('@org/team');
  expect(outsideCodeSpans).not.toContain('http://evil.example');
  // Every `<summary>` is botrules' own: as many as `</summary>`, and the data's is escaped.
  expect(markdown.split('<summary>').length).toBe(markdown.split('</summary>').length);
}

describe('hostile text through the real binary', () => {
  it('plan text shows the live description and unmanaged name with visible escapes', async () => {
    const { code, out } = await botrules(['plan']);
    expect(code).toBe(0);
    expectHarmless(out);
    expect(out).toContain('\\x1b[2J');
    expect(out).toContain('\\u202e');
  });

  it('plan markdown adds no structure and no raw control', async () => {
    const { code, out, stdout } = await botrules(['plan', '--format', 'markdown']);
    expect(code).toBe(0);
    expectHarmless(out);
    expectNoMarkdownStructure(stdout);
  });

  it('plan json keeps the data exact', async () => {
    const { code, stdout } = await botrules(['plan', '--format', 'json']);
    expect(code).toBe(0);
    expectHarmless(stdout);
    expect(JSON.stringify(JSON.parse(stdout))).toContain(JSON.stringify(HOSTILE).slice(1, -1));
  });

  it('validate quotes a hostile file name and key harmlessly, annotations escaped', async () => {
    const { code, out } = await botrules(['validate', '--dir', 'bad']);
    expect(code).toBe(1);
    expectHarmless(out);
    // A key botrules does not know is kept with a warning naming it (docs/behaviour.md, "Unknown fields").
    expect(out).toMatch(/^::warning file=bad\/f%0A%3A%3Aerror%3A%3Afile\\x1b\[2J\\u202e\.yaml,line=3,col=5::rule "x": "k\\x1b\[2J%0A::error::key\\u202e" in rule is a field botrules does not know/m);
  });

  it('import refusing to overwrite names the hostile file harmlessly', async () => {
    const { code, out } = await botrules(['import', '--out', 'bad']);
    expect(code).toBe(1);
    expectHarmless(out);
  });

  describe('scripts', () => {
    const REPORT = ['scripts', 'report', '--app-id', 'app-demo', '--tld', 'shop.example.com', '--from', '60d'];

    beforeAll(async () => {
      const clean = await botrules([...REPORT, '--out', 'old.json']);
      expect(clean.code).toBe(0);
      emu.emulator.replaceScripts(
        emu.emulator.scripts().map((record, i) => ({ ...record, id: `${i % 2 ? '=' : '@'}${HOSTILE}${i}`, vendor: HOSTILE, type: `-${HOSTILE}`, risk: { level: 'critical', reason: HOSTILE }, page_types: [HOSTILE] })),
      );
      const hostile = await botrules([...REPORT, '--out', 'new.json']);
      expect(hostile.code).toBe(0);
    });

    it('report markdown adds no structure', async () => {
      const { code, out, stdout } = await botrules([...REPORT, '--format', 'markdown']);
      expect(code).toBe(0);
      expectHarmless(out);
      expectNoMarkdownStructure(stdout);
    });

    it('report csv on a terminal: no raw control, no formula cell', async () => {
      const { code, stdout, stderr } = await runCli([...REPORT, '--format', 'csv', '--no-color'], { cwd: project, env: { ...emu.env, GITHUB_ACTIONS: 'true' }, tty: true });
      expect(code).toBe(0);
      // The progress line (stderr is a terminal here) erases itself with its own sequence; no other control may appear.
      expectHarmless(stdout + stderr.replaceAll('\r\u001b[2K', '\n'), { csv: true });
      expect(stdout).toContain(`'@x\\x1b[2J`);
    });

    it('report csv to a pipe: exact data but no formula cell; --no-csv-formula-escape keeps cells exact', async () => {
      const { code, stdout } = await botrules([...REPORT, '--format', 'csv']);
      expect(code).toBe(0);
      expect(stdout).toContain(`'@x`);
      expect(stdout).toContain(`'=x`);
      expect(stdout).not.toMatch(/(^|,)"?[=+\-@]/m);
      const exact = await botrules([...REPORT, '--format', 'csv', '--no-csv-formula-escape', '--out', 'exact.csv']);
      expect(exact.code).toBe(0);
      expect(await readFile(path.join(project, 'exact.csv'), 'utf8')).toContain(`"=${HOSTILE.slice(0, 3)}`);
    });

    it.each([['text'], ['markdown'], ['json']])('diff %s', async (format) => {
      const { code, out, stdout } = await botrules(['scripts', 'diff', 'old.json', 'new.json', '--format', format, '--fail-on', 'risk-up']);
      expect(code).toBe(3);
      expectHarmless(out);
      if (format === 'markdown') expectNoMarkdownStructure(stdout);
      if (format === 'json') expect(JSON.stringify(JSON.parse(stdout))).toContain(JSON.stringify(HOSTILE).slice(1, -1));
    });
  });

  describe('a server whose error body is hostile', () => {
    let server: Server;
    let url: string;

    beforeAll(async () => {
      const { cert, key } = await sharedCertificate();
      server = createServer({ cert, key }, (_request, response) => {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ message: HOSTILE }));
      });
      await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
      const address = server.address();
      url = `https://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    });
    afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

    it.each([[[]], [['--verbose']]])('plan %j reports the error with visible escapes', async (extra) => {
      const { code, out } = await botrules(['plan', ...extra], { ...emu.env, BOTRULES_CONSOLE_URL: url, BOTRULES_GATEWAY_URL: url });
      expect(code).toBe(1);
      expectHarmless(out);
      expect(out).toContain('error:');
    });
  });
});
