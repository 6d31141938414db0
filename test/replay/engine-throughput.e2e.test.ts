// The report says which engine ran and how fast (docs/replay.md, "The report"), and both engines
// draw the progress line on a terminal, through the real binary. Requests per second are a
// timing: their presence and form are checked here, never their value.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runBinary } from '../helpers/binary.js';
import { hasScript, runInTerminal, screenLines } from '../helpers/terminal.js';
import { ENGINE_SENTENCE, NDJSON, replayProject, withoutEngineSentence } from './fixtures.js';

const ENGINES = ['js', 'duckdb'] as const;
/** Enough lines that a replay takes a while: the fixture's readable requests, repeated. */
const LONG_LOG = `${Array.from({ length: 4000 }, () => NDJSON.split('\n').filter((line) => line.endsWith('}'))).flat().join('\n')}\n`;

let project: string;
beforeAll(async () => {
  // util-linux is part of every Debian and Ubuntu system, CI's included.
  expect(await hasScript()).toBe(true);
  project = replayProject();
  writeFileSync(path.join(project, 'a.ndjson'), NDJSON);
  writeFileSync(path.join(project, 'long.ndjson'), LONG_LOG);
});

describe.each(ENGINES)('--engine %s', (engine) => {
  const replay = (...args: string[]) => runBinary(project, 'replay', '--live', 'live.json', '--engine', engine, ...args);

  it('ends the text report with the engine and its requests per second', async () => {
    const result = await replay('a.ndjson');
    expect(result.code).toBe(2);
    const lines = result.stdout.split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.at(-2)).toMatch(ENGINE_SENTENCE);
    expect(lines.at(-2)).toContain(`by the ${engine} engine: `);
  });

  it('ends the Markdown report with them, as a paragraph of its own', async () => {
    const result = await replay('--format', 'markdown', 'a.ndjson');
    const lines = result.stdout.split('\n');
    expect(lines.slice(-3, -2)).toEqual(['']);
    expect(lines.at(-2)).toMatch(ENGINE_SENTENCE);
    expect(lines.at(-2)).toContain(`by the ${engine} engine: `);
  });

  it('names them in JSON: the engine, and a whole number of requests per second', async () => {
    const result = await replay('--format', 'json', 'a.ndjson');
    const { engine: reported } = JSON.parse(result.stdout) as { engine: { name: string; requestsPerSecond: number } };
    expect(Object.keys(reported)).toEqual(['name', 'requestsPerSecond']);
    expect(reported.name).toBe(engine);
    expect(Number.isInteger(reported.requestsPerSecond)).toBe(true);
    expect(reported.requestsPerSecond).toBeGreaterThan(0);
  });

  it('draws the progress line of a long replay on a terminal, and erases it before the report', async () => {
    const columns = 120;
    const run = await runInTerminal(['replay', '--live', 'live.json', '--engine', engine, 'long.ndjson'], {
      cwd: project, env: { PATH: process.env.PATH ?? '', HOME: project, TERM: 'xterm', NO_COLOR: '1' }, columns, rows: 40,
    });
    expect(run.code).toBe(2);
    const frames = [...run.output.matchAll(/replay \[[#-]{30}\] (\d+)\/(\d+) KiB read, (\d+) lines/g)];
    expect(frames.length).toBeGreaterThan(0);
    // The last frame: every byte of the log read.
    const [, read, total] = frames.at(-1) as RegExpMatchArray;
    expect(read).toBe(total);
    const screen = screenLines(run.output, columns).lines;
    expect(screen.some((line) => line.startsWith('replay ['))).toBe(false);
    expect(screen[0]).toMatch(/^Replayed [0-9,]+ requests from 1 file for app "shop"/);
    expect(screen.filter((line) => ENGINE_SENTENCE.test(line))).toHaveLength(1);
  });
});

it('gives the same text report from both engines but for the engine sentence', async () => {
  const [js, duckdb] = await Promise.all(ENGINES.map((engine) => runBinary(project, 'replay', '--live', 'live.json', '--engine', engine, 'a.ndjson')));
  expect(withoutEngineSentence(duckdb?.stdout ?? '')).toBe(withoutEngineSentence(js?.stdout ?? ''));
});
