// `botrules replay` through the real binary, on fixture logs where every request's outcome is
// known: exact counts, shares, rules and examples in every format and log format, gzip and
// directories, skipped lines with their first line numbers, and the exit codes.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { parsePlan, parsePlanText } from '../../src/plan/file-format.js';
import { runCli } from '../helpers/cli.js';
import { runBinary as botrules } from '../helpers/binary.js';
import { COMBINED, CSV, LIVE, NDJSON, replayProject, withoutEngineSentence } from './fixtures.js';

let project: string;
beforeAll(() => {
  project = replayProject();
  mkdirSync(path.join(project, 'logs'));
  writeFileSync(path.join(project, 'logs', 'a.ndjson'), NDJSON);
  writeFileSync(path.join(project, 'logs', 'b.csv'), CSV);
  writeFileSync(path.join(project, 'access.log.gz'), gzipSync(COMBINED));
  writeFileSync(path.join(project, 'access.log'), COMBINED);
  writeFileSync(path.join(project, 'cut.log.gz'), gzipSync(COMBINED).subarray(0, 40));
  writeFileSync(path.join(project, 'notes.txt'), 'hello\n');
});

/** The first lines of the fixture log's Markdown report, the same from `replay` and before `plan --replay`'s plan. */
const MARKDOWN_SUMMARY = [
  '### Traffic replay',
  '',
  'Replayed 7 requests from 1 file for app &quot;shop&quot;: 6 evaluated, 1 skipped; live = the live snapshot &quot;live.json&quot;, declared = the rules as apply would leave them.',
  '',
  '| Outcome change | Requests | Share | Main rules |',
  '| --- | ---: | ---: | --- |',
  '| no rule → challenge | 1 | 16.7% | 1× no rule → &quot;Challenge checkout&quot; |',
  '| challenge → block | 2 | 33.3% | 2× &quot;Challenge login&quot; → &quot;Block login&quot; |',
];

const replay = (...args: string[]) => botrules(project, 'replay', '--live', 'live.json', ...args);

interface Summary {
  read: number;
  evaluated: number;
  skipped: { reason: string; count: number; first: { file: string; line: number } }[];
  transitions: { from: string; to: string; count: number; share: number; rules: unknown[]; examples: { line: number }[] }[];
}

async function summary(...args: string[]): Promise<Summary> {
  const result = await replay('--format', 'json', ...args);
  expect(result.code).toBe(2);
  return JSON.parse(result.stdout) as Summary;
}

describe('replay: exact counts on logs whose every outcome is known', () => {
  it('prints each transition, riskiest first, with its share, rules and examples, and exits 2', async () => {
    const result = await replay('logs', 'access.log.gz');
    expect(withoutEngineSentence(result.stdout)).toBe([
      'Replayed 21 requests from 3 files for app "shop": 18 evaluated, 3 skipped; live = the live snapshot "live.json", declared = the rules as apply would leave them.',
      'Skipped lines:',
      '    1 not JSON (first at logs/a.ndjson:6)',
      '    1 not a CSV row (unbalanced quotes) (first at logs/b.csv:7)',
      '    1 not a common or combined access-log line (first at access.log.gz:6)',
      'Outcome changes, live → declared (riskiest first):',
      '    no rule → challenge: 3 requests (16.7%)',
      '        3× no rule → "Challenge checkout"',
      '        e.g. logs/a.ndjson:3 {"path":"/checkout/pay","method":"GET","userAgent":"Mozilla/5.0","asn":"13335"}',
      '        e.g. logs/b.csv:4 {"path":"/checkout/pay","method":"GET","userAgent":"Mozilla/5.0"}',
      '        e.g. access.log.gz:3 {"ip":"203.0.113.8","method":"GET","path":"/checkout/pay","userAgent":"Mozilla/5.0"}',
      '    challenge → block: 6 requests (33.3%)',
      '        6× "Challenge login" → "Block login"',
      '        e.g. logs/a.ndjson:2 {"path":"/login","method":"POST","userAgent":"Mozilla/5.0","ip":"203.0.113.7","country":"US"}',
      '        e.g. logs/a.ndjson:5 {"path":"/login","method":"GET","query":{"next":"/home"}}',
      '        e.g. logs/b.csv:3 {"path":"/login","method":"POST","userAgent":"Mozilla/5.0 (X11, Linux)","ip":"203.0.113.7"}',
      '',
    ].join('\n'));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(2);
  });

  it.each([
    ['logs/a.ndjson', 6, [[3], [2, 5]]],
    ['logs/b.csv', 7, [[4], [3, 6]]],
    ['access.log', 6, [[3], [2, 5]]],
    ['access.log.gz', 6, [[3], [2, 5]]],
  ])('counts every request of %s alone', async (file, badLine, exampleLines) => {
    const report = await summary(file);
    expect(report.read).toBe(7);
    expect(report.evaluated).toBe(6);
    expect(report.skipped.map((skip) => [skip.count, skip.first])).toEqual([[1, { file, line: badLine }]]);
    expect(report.transitions.map((t) => [t.from, t.to, t.count, t.share])).toEqual([
      ['none', 'challenge', 1, 1 / 6],
      ['challenge', 'block', 2, 2 / 6],
    ]);
    expect(report.transitions.map((t) => t.examples.map((example) => example.line))).toEqual(exampleLines);
  });

  it('a log format given for every file overrides the file names', async () => {
    const report = await summary('--log-format', 'combined', 'access.log');
    expect(report.evaluated).toBe(6);
  });

  it('exits 0 and says so when no request changes outcome', async () => {
    const same = replayProject(LIVE.map(({ priority: _p, ...rule }) => rule));
    writeFileSync(path.join(same, 'a.ndjson'), NDJSON);
    const result = await botrules(same, 'replay', '--live', 'live.json', 'a.ndjson');
    expect(withoutEngineSentence(result.stdout)).toBe([
      'Replayed 7 requests from 1 file for app "shop": 6 evaluated, 1 skipped; live = the live snapshot "live.json", declared = the rules as apply would leave them.',
      'Skipped lines:',
      '    1 not JSON (first at a.ndjson:6)',
      'No outcome changes: every evaluated request meets the same outcome under the declared rules.',
      '',
    ].join('\n'));
    expect(result.code).toBe(0);
  });

  it('prints Markdown for a pull-request comment', async () => {
    const result = await replay('--format', 'markdown', 'logs/a.ndjson');
    expect(withoutEngineSentence(result.stdout)).toBe([
      ...MARKDOWN_SUMMARY,
      '',
      '<details><summary>no rule → challenge: rules and example requests</summary>',
      '',
      '- 1× no rule → &quot;Challenge checkout&quot;',
      '',
      '```text',
      'logs/a.ndjson:3 {"path":"/checkout/pay","method":"GET","userAgent":"Mozilla/5.0","asn":"13335"}',
      '```',
      '',
      '</details>',
      '',
      '<details><summary>challenge → block: rules and example requests</summary>',
      '',
      '- 2× &quot;Challenge login&quot; → &quot;Block login&quot;',
      '',
      '```text',
      'logs/a.ndjson:2 {"path":"/login","method":"POST","userAgent":"Mozilla/5.0","ip":"203.0.113.7","country":"US"}',
      'logs/a.ndjson:5 {"path":"/login","method":"GET","query":{"next":"/home"}}',
      '```',
      '',
      '</details>',
      '',
      '| Skipped because | Lines | First at |',
      '| --- | ---: | --- |',
      '| not JSON | 1 | logs/a.ndjson:6 |',
      '',
    ].join('\n'));
  });
});

describe('replay: errors exit 1 with a sentence', () => {
  it.each([
    [['missing.ndjson'], 'error: cannot read the log missing.ndjson (ENOENT)'],
    [['notes.txt'], 'error: cannot tell the format of notes.txt from its first line: use --log-format ndjson, csv, combined, cloudfront, alb, cloudflare, human, har or parquet'],
    [['cut.log.gz'], 'error: cannot read the log cut.log.gz (the gzip data is damaged or cut short)'],
  ])('%j', async (logs, message) => {
    const result = await replay(...logs);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe(message);
  });
});

describe('plan --replay', () => {
  it('puts the replay summary before the plan, in text', async () => {
    const result = await botrules(project, 'plan', '--live', 'live.json', '--replay', 'logs/a.ndjson');
    expect(result.code).toBe(0);
    const [summaryPart] = result.stdout.split('\n\n');
    expect(withoutEngineSentence(`${summaryPart}\n`)).toBe([
      'Replayed 7 requests from 1 file for app "shop": 6 evaluated, 1 skipped; live = the live snapshot "live.json", declared = the rules as apply would leave them.',
      'Skipped lines:',
      '    1 not JSON (first at logs/a.ndjson:6)',
      'Outcome changes, live → declared (riskiest first):',
      '    no rule → challenge: 1 request (16.7%)',
      '        1× no rule → "Challenge checkout"',
      '        e.g. logs/a.ndjson:3 {"path":"/checkout/pay","method":"GET","userAgent":"Mozilla/5.0","asn":"13335"}',
      '    challenge → block: 2 requests (33.3%)',
      '        2× "Challenge login" → "Block login"',
      '        e.g. logs/a.ndjson:2 {"path":"/login","method":"POST","userAgent":"Mozilla/5.0","ip":"203.0.113.7","country":"US"}',
      '        e.g. logs/a.ndjson:5 {"path":"/login","method":"GET","query":{"next":"/home"}}',
      '',
    ].join('\n'));
    expect(result.stdout.split('\n')).toContain('~ "Block login" (r-3): updates name, actions');
  });

  it('puts the replay table before the plan in Markdown', async () => {
    const result = await botrules(project, 'plan', '--live', 'live.json', '--format', 'markdown', '--replay', 'logs/a.ndjson');
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n').slice(0, 8)).toEqual(MARKDOWN_SUMMARY);
  });

  it('carries the replay report in a JSON plan, and the verdict in the app, printed and saved alike', async () => {
    const result = await runCli(['plan', '--live', 'live.json', '--format', 'json', '--replay', 'logs/a.ndjson', '--out', 'plan.json'], { cwd: project });
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout) as { replay: Summary & { app: string }; apps: { replay: unknown }[] };
    expect(printed.replay).toMatchObject({ app: 'shop', read: 7, evaluated: 6, skipped: [{ reason: 'not JSON', count: 1, first: { file: 'logs/a.ndjson', line: 6 } }] });
    expect(printed.replay.transitions.map((t) => [t.from, t.to, t.count, t.rules, t.examples.map((e) => e.line)])).toEqual([
      ['none', 'challenge', 1, [{ after: 'Challenge checkout', count: 1 }], [3]],
      ['challenge', 'block', 2, [{ before: 'Challenge login', after: 'Block login', count: 2 }], [2, 5]],
    ]);
    expect(printed.apps[0]?.replay).toEqual({
      logs: ['logs/a.ndjson'], evaluated: 6, newlyBlocked: 1, rules: [{ name: 'Challenge checkout', count: 1 }],
      examples: ['logs/a.ndjson:3 {"path":"/checkout/pay","method":"GET","userAgent":"Mozilla/5.0","asn":"13335"}'],
    });
    const saved = readFileSync(path.join(project, 'plan.json'), 'utf8');
    expect(JSON.parse(saved)).toEqual(printed);
    // Read back, the file is a valid plan: the report is a review aid, the verdict is kept.
    expect(parsePlan(parsePlanText(saved, 'plan.json'), 'plan.json').apps[0]?.replay).toEqual(printed.apps[0]?.replay);
  });
});

it('asks which app a log belongs to when several are selected, before any request', async () => {
  const apps = replayProject();
  writeFileSync(path.join(apps, 'botrules.yaml'), 'apps:\n  - { name: shop, rulesDir: rules, tokenEnv: BOTRULES_TOKEN_SHOP }\n  - { name: blog, rulesDir: rules, tokenEnv: BOTRULES_TOKEN_BLOG }\n');
  writeFileSync(path.join(apps, 'a.ndjson'), NDJSON);
  const result = await botrules(apps, 'replay', 'a.ndjson');
  expect(result.code).toBe(1);
  expect(result.stderr.split('\n').slice(0, 2)).toEqual([
    'error: a log is replayed under one app\'s rules, and 2 apps are selected',
    'Name the app the log belongs to: botrules replay --app NAME LOG…',
  ]);
});

describe('NDJSON field mapping (botrules.yaml replay.fields)', () => {
  const LOG = [
    { url: { path: '/login' }, http: { user_agent: 'Mozilla/5.0', request_headers: { cookie: 'sid=1' } } },
    { url: { path: '/checkout/pay' }, path: '/ignored' },
    { url: { path: '/search' }, http: { user_agent: 'Scrapy/2.11' } },
  ].map((line) => JSON.stringify(line)).join('\n');

  it('reads each mapped field from its dotted path, the others by their own names', async () => {
    const mapped = replayProject();
    writeFileSync(path.join(mapped, 'botrules.yaml'), [
      'apps: [{ name: shop, rulesDir: rules }]',
      'replay:',
      '  fields: { path: url.path, userAgent: http.user_agent, headers: http.request_headers }',
      '',
    ].join('\n'));
    writeFileSync(path.join(mapped, 'ecs.ndjson'), LOG);
    const result = await botrules(mapped, 'replay', '--live', 'live.json', '--format', 'json', 'ecs.ndjson');
    const report = JSON.parse(result.stdout) as { evaluated: number; transitions: { from: string; to: string; examples: { request: unknown }[] }[] };
    expect(report.evaluated).toBe(3);
    expect(report.transitions.map((t) => [t.from, t.to, t.examples.map((example) => example.request)])).toEqual([
      ['none', 'challenge', [{ path: '/checkout/pay' }]],
      ['challenge', 'block', [{ path: '/login', userAgent: 'Mozilla/5.0', headers: { cookie: '[redacted]' } }]],
    ]);
  });

  it('refuses a mapping of a field that does not exist, at its line', async () => {
    const mapped = replayProject();
    writeFileSync(path.join(mapped, 'botrules.yaml'), 'apps: [{ name: shop, rulesDir: rules }]\nreplay:\n  fields:\n    agent: http.user_agent\n');
    writeFileSync(path.join(mapped, 'ecs.ndjson'), LOG);
    const result = await botrules(mapped, 'replay', '--live', 'live.json', 'ecs.ndjson');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe([
      'botrules.yaml:4:5: unknown key "agent" in fields (allowed: preset, path, method, userAgent, ip, asn, country, domain, deviceType, headers, query, custom)',
      'error: 1 problem found',
      '',
    ].join('\n'));
  });
});

describe('logs users have, through the binary', () => {
  it('replays a CloudFront log told by its #Fields: line, and exits 2', async () => {
    writeFileSync(path.join(project, 'E2ABCDEF.2026-11-20-08'), readFileSync(path.resolve('test/fixtures/logs/cloudfront.log')));
    const result = await replay('--format', 'json', 'E2ABCDEF.2026-11-20-08');
    const report = JSON.parse(result.stdout) as Summary & { coverage: { undecided: number } };
    expect(report.read).toBe(24);
    expect(report.coverage.undecided).toBe(0);
    expect(result.code).toBe(2);
  });

  it('skips one line of millions of characters with its line number (a line that compresses 1,000 times is a bomb, refused whole)', async () => {
    writeFileSync(path.join(project, 'hostile.ndjson.gz'), gzipSync(`{"path":"/a"}\n{"path":"/${randomBytes(3_000_000).toString('base64')}"}\n{"path":"/login"}\n`));
    const report = await summary('hostile.ndjson.gz');
    expect(report.skipped).toEqual([{ reason: 'line longer than 262,144 characters', count: 1, first: { file: 'hostile.ndjson.gz', line: 2 } }]);
    expect(report.evaluated).toBe(2);
    writeFileSync(path.join(project, 'bomb.ndjson.gz'), gzipSync(`{"path":"/${'a'.repeat(20_000_000)}"}\n`));
    const bomb = await replay('bomb.ndjson.gz');
    expect(bomb.code).toBe(1);
    expect(bomb.stdout).toBe('');
    expect(bomb.stderr.split('\n')[0]).toMatch(/^error: bomb\.ndjson\.gz: the gzip data expands more than 200 times \(/);
  });

  it('refuses a HAR that is not JSON at its line and column, with no report', async () => {
    writeFileSync(path.join(project, 'broken.har'), '{\n  "log": {\n    "entries": [,]\n  }\n}\n');
    const result = await replay('broken.har');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe('error: broken.har:3:17: not a HAR file: not JSON');
  });
});
