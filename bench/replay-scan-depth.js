// How far into an NDJSON log a scan from its start must go to find every record the duckdb
// engine's report shows (issue #37): the report's examples are per transition of outcome (the
// first EXAMPLES_PER_TRANSITION of each, src/replay/tally.ts), per field with an unusable value
// (its first), plus every record DuckDB reads otherwise than JavaScript (odd, all of them). The
// engine replays the bench's log (replay.bench.js's project and requests) and the depths are read
// off its report (each example's line) and off the class reading (the odd records, the groups).
// For comparison: the depth that the first three records of every group would need (what the
// engine reads today, and what numbering only the log's start per group needed in round 4).
// Usage: REPLAY_SCAN_SIZES=1000000,10000000 REPLAY_BENCH_SHAPES=… node bench/replay-scan-depth.js
// (REPLAY_SCAN_LOGS: the folder where the logs are written once and kept, by default the system's temporary one).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeReplayProject, writeRequestLog } from './replay-requests.js';

const SIZES = (process.env.REPLAY_SCAN_SIZES ?? '1000000').split(',').map(Number);
const SHAPES = (process.env.REPLAY_BENCH_SHAPES ?? 'generated,themed,distinct,last,untuned,tenants,partners,regions,fleets,checkouts,logins,agents').split(',');
const LOGS = process.env.REPLAY_SCAN_LOGS ?? os.tmpdir();
const here = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(here), '..');

async function child(shape, dir, log) {
  const { REPLAY_SHAPES } = await import('./replay-shapes.js');
  const { takeSnapshot } = await import('../dist/live/snapshot.js');
  const { DuckDbDecider } = await import('../dist/replay/duckdb/decider.js');
  let reading;
  const readClasses = DuckDbDecider.prototype.readClasses;
  DuckDbDecider.prototype.readClasses = async function kept(...args) {
    reading = await readClasses.apply(this, args);
    return reading;
  };
  const rules = REPLAY_SHAPES[shape]();
  writeReplayProject(dir, rules, log, takeSnapshot);
  const { replayProject } = await import('../dist/engine/replay.js');
  const how = [];
  const ctx = { cwd: dir, env: () => undefined, debug: (line) => how.push(line), notice: () => {} };
  const report = await replayProject({ logs: ['log.ndjson'], liveFile: 'live.json', engine: 'duckdb' }, ctx);
  const transitions = [...report.transitions, ...(report.shadow?.transitions ?? [])];
  const deepest = (lines) => lines.reduce((max, line) => Math.max(max, line), 0);
  const byTransition = deepest(transitions.map((t) => deepest(t.examples.map((example) => example.line))));
  const unusable = deepest((report.coverage?.unusable ?? []).map((field) => field.first.line));
  const undecidedPairs = transitions.reduce((sum, t) => sum + t.rules.filter((pair) => pair.beforePatterns !== undefined || pair.afterPatterns !== undefined).length, 0);
  const groups = reading?.groups ?? [];
  const byGroup = deepest(groups.map((group) => deepest(group.firsts)));
  const odd = reading?.odd ?? { count: 0, rows: [] };
  process.stdout.write(JSON.stringify({
    native: how.some((line) => line.includes('read by DuckDB')), evaluated: report.evaluated, transitions: transitions.length,
    counts: transitions.map((t) => t.count), byTransition, unusable, undecidedPairs, odd: odd.count, lastOdd: deepest(odd.rows),
    groups: groups.length, byGroup,
  }));
}

const share = (line, size) => `${((100 * line) / size).toFixed(3)} %`;

if (process.argv[2] === '--child') await child(...process.argv.slice(3));
else {
  process.stdout.write(`${os.cpus().length} cores, Node ${process.version}, load ${os.loadavg()[0].toFixed(1)}\n\n` +
    '| requests | shape | read by DuckDB | transitions | their counts (smallest 3) | last example needed (line) | share of the log | first unusable values, last (line) | odd records | last odd (line) | pairs with an undecided side | groups | each group\'s first 3: last (line) | share |\n' +
    '|---:|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n');
  for (const size of SIZES) {
    const log = path.join(LOGS, `botrules-replay-steps-${size}.ndjson`);
    if (!existsSync(log)) await writeRequestLog(log, size);
    const work = mkdtempSync(path.join(os.tmpdir(), 'botrules-scan-depth-'));
    for (const shape of SHAPES) {
      const dir = mkdtempSync(path.join(work, `${shape}-`));
      const out = spawnSync(process.execPath, [here, '--child', shape, dir, log], { encoding: 'utf8', cwd: root });
      if (out.status !== 0) throw new Error(out.stderr);
      const r = JSON.parse(out.stdout);
      const smallest = [...r.counts].sort((a, b) => a - b).slice(0, 3).join(', ');
      const needed = Math.max(r.byTransition, r.unusable, r.lastOdd);
      process.stdout.write(`| ${size} | ${shape} | ${r.native ? 'yes' : 'no'} | ${r.transitions} | ${smallest} | ${needed} | ${share(needed, size)} | ${r.unusable} | ${r.odd} | ${r.lastOdd} | ${r.undecidedPairs} | ${r.groups} | ${r.byGroup} | ${share(r.byGroup, size)} |\n`);
    }
  }
  process.stdout.write(`\nload at the end ${os.loadavg()[0].toFixed(1)}\n`);
}
