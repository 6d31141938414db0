// The emulator's synthetic traffic: `botrules emulator --write-traffic` writes a deterministic
// NDJSON log of browsers, bots, monitors and partners, and replaying it against the emulator's
// generated rules gives exactly the counts the reference evaluator gives request by request.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { decide } from '../../src/evaluate/evaluate.js';
import { generateRules } from '../../src/emulator/generate-rules.js';
import { trafficRequests } from '../../src/emulator/generate-traffic.js';
import { seededRandom } from '../../src/emulator/random.js';
import type { LiveRule, NormalRule } from '../../src/semantics/model.js';
import { redactRequest } from '../../src/replay/redact.js';
import { outcomeOf } from '../../src/replay/tally.js';
import { botrules, replayProject } from './fixtures.js';
import { live } from '../helpers/rules.js';

const REQUESTS = 3000;

/** Live: 80 generated rules; declared: every fourth one's status flipped (so outcomes move both ways). */
const LIVE: LiveRule[] = generateRules(seededRandom(7), 80).map((rule, priority) => live({ ...rule, ruleId: `g-${priority}` }, priority));
const DECLARED: NormalRule[] = LIVE.map(({ priority, ...rule }) => (priority % 4 === 0 ? { ...rule, status: rule.status === 'active' ? 'paused' : 'active' } : rule));

it('writes the same log for the same seed, and says how to replay it', async () => {
  const project = replayProject(DECLARED, LIVE);
  const first = await botrules(project, 'emulator', '--write-traffic', 'a.ndjson', '--traffic-requests', String(REQUESTS), '--random-seed', '3');
  expect(first.stdout).toBe(`Wrote ${REQUESTS} synthetic requests to a.ndjson; replay them with: botrules replay a.ndjson\n`);
  expect(first.code).toBe(0);
  await botrules(project, 'emulator', '--write-traffic', 'b.ndjson', '--traffic-requests', String(REQUESTS), '--random-seed', '3');
  const text = readFileSync(path.join(project, 'a.ndjson'), 'utf8');
  expect(text).toBe(readFileSync(path.join(project, 'b.ndjson'), 'utf8'));
  expect(text.split('\n')).toHaveLength(REQUESTS + 1);
  expect(text.split('\n').slice(0, REQUESTS).map((line) => JSON.parse(line) as unknown)).toEqual([...trafficRequests(REQUESTS, 3)]);
});

it('replays to exactly the counts the reference evaluator gives each request', async () => {
  const project = replayProject(DECLARED, LIVE);
  await botrules(project, 'emulator', '--write-traffic', 'traffic.ndjson', '--traffic-requests', String(REQUESTS), '--random-seed', '3');
  const expected = new Map<string, number>();
  for (const request of trafficRequests(REQUESTS, 3)) {
    const read = redactRequest(JSON.parse(JSON.stringify(request)) as Parameters<typeof redactRequest>[0]);
    const key = `${outcomeOf(decide(LIVE, read))}>${outcomeOf(decide(DECLARED, read))}`;
    if (key.split('>')[0] !== key.split('>')[1]) expected.set(key, (expected.get(key) ?? 0) + 1);
  }
  const result = await botrules(project, 'replay', '--live', 'live.json', '--format', 'json', 'traffic.ndjson');
  const report = JSON.parse(result.stdout) as { evaluated: number; transitions: { from: string; to: string; count: number }[] };
  expect(report.evaluated).toBe(REQUESTS);
  expect(new Map(report.transitions.map((t) => [`${t.from}>${t.to}`, t.count]))).toEqual(expected);
  // The mixture makes the generated rules decide both ways: the oracle is not trivially empty.
  expect([...expected.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(REQUESTS / 100);
});

describe('--traffic-format: the same requests in every log format replay reads', () => {
  const FORMATS = ['ndjson', 'csv', 'combined', 'cloudfront', 'alb', 'cloudflare', 'human', 'har', 'parquet'] as const;
  const COUNT = 300;
  let project: string;
  const reports = new Map<string, { read: number; evaluated: number; skipped: unknown[]; transitions: { from: string; to: string; count: number }[]; coverage: { undecided: number; carried: Record<string, number> } }>();
  beforeAll(async () => {
    project = replayProject(DECLARED, LIVE);
    for (const format of FORMATS) {
      const written = await botrules(project, 'emulator', '--write-traffic', `t.${format}`, '--traffic-format', format, '--traffic-requests', String(COUNT), '--random-seed', '5');
      expect(written.code).toBe(0);
      const result = await botrules(project, 'replay', '--live', 'live.json', '--format', 'json', '--log-format', format, `t.${format}`);
      reports.set(format, JSON.parse(result.stdout) as never);
    }
  });

  it.each(FORMATS)('%s: every request read, none skipped', (format) => {
    const report = reports.get(format);
    expect(report).toMatchObject({ read: COUNT, evaluated: COUNT, skipped: [] });
  });

  it('formats that carry every field decide as NDJSON does; the others leave undecided what they cannot carry', () => {
    const counts = (format: string) => reports.get(format)?.transitions.map((t) => [t.from, t.to, t.count]);
    expect(counts('csv')).toEqual(counts('ndjson'));
    expect(counts('parquet')).toEqual(counts('ndjson'));
    expect(reports.get('ndjson')?.coverage.undecided).toBe(0);
    expect(reports.get('parquet')?.coverage.undecided).toBe(0);
    // An access log has no country, ASN, device type or header but the Referer; a Data Export no ASN number.
    expect(reports.get('combined')?.coverage.carried.country).toBe(0);
    expect(reports.get('combined')?.coverage.carried).toMatchObject({ path: COUNT, userAgent: COUNT, ip: COUNT, asn: 0, country: 0, headers: 0 });
    expect(reports.get('human')?.coverage.carried).toMatchObject({ path: COUNT, country: COUNT, asn: 0 });
    expect(reports.get('cloudflare')?.coverage.carried).toMatchObject({ country: COUNT, asn: COUNT, path: COUNT });
  });
});
