// What each piece of per-record work costs the duckdb engine's queries (issue #37: from
// Parquet at ≥ 2× its NDJSON requests/s): the engine replays the bench's requests (replay.bench.js's
// project, the log as NDJSON and as Parquet) and, when each of its queries comes, the same query is
// run first in several forms on the same connection, alternated, REPLAY_WORK_REPS times: as the
// engine runs it, and with one piece of work taken out (the IPv4 test and number: every `ip` taken
// for an IPv4 address; the headers' JSON text: every record's headers absent, so every record is
// odd where a rule reads them; the joins with the class tables; NULLIF on Parquet's text columns;
// the numbering), and the grouping as one pass by the raw values read (IPv4 addresses by their
// range class), counted, with how many groups that makes. A Parquet file read once (its one
// reading, group-query.ts: the CREATE of the groups' table) has its own forms: no IPv4 test, no
// IPv4 number (every address one constant), a map's text not grouped (only whether it is there),
// the maps' texts grouped by their 64-bit hashes, the maps as DuckDB's text of them (an exact text
// too) instead of their JSON, no JSON made of the maps at all (each grouped by its hash), no odd
// test, the class function not called, nothing grouped (the rows counted and their keys hashed);
// its rows are the table's groups; and the forms of the maps read only by the keys the rules
// read (bench/replay-key-forms.js). The forms give wrong answers on purpose: only their cost is read. Medians of process CPU ms (DuckDB's threads included) and wall ms, and the rows each form
// returns. A form whose piece is not in a query is left out.
// Usage: REPLAY_WORK_REQUESTS=1000000 REPLAY_BENCH_SHAPES=agents,fleets node bench/replay-parquet-work.js
// (REPLAY_AB_NDJSON: a log of the bench's requests already written, as bench/replay-ab.js takes it;
// REPLAY_WORK_FORMATS=parquet: the Parquet file only; REPLAY_WORK_ONLY=keys,maps: the forms whose
// label holds one of those words, beside the engine's own).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { hashBits, keyForms, MAP_FIELDS, MAP_KEYS, mapJson, namesRead } from './replay-key-forms.js';
import { requestLogsIn, writeReplayProject } from './replay-requests.js';

const REQUESTS = Number(process.env.REPLAY_WORK_REQUESTS ?? 1_000_000);
const SHAPES = (process.env.REPLAY_BENCH_SHAPES ?? 'agents,fleets').split(',');
const REPS = Number(process.env.REPLAY_WORK_REPS ?? 3);
const FORMATS = (process.env.REPLAY_WORK_FORMATS ?? 'parquet,ndjson').split(',');
const ONLY = process.env.REPLAY_WORK_ONLY?.split(',');
const here = fileURLToPath(import.meta.url);

const IPV4_TEST = /regexp_full_match\(ip, '[^']*'\)/;
const HEADERS_JSON = 'CAST(to_json("headers") AS VARCHAR)';
const CLASS_JOIN = /LEFT JOIN botrules_class_\w+ AS c\d+ ON .*?(?: = | IS NOT DISTINCT FROM )c\d+\.v( AND t\.botrules_qpath IS NOT DISTINCT FROM c\d+\.q)?(?= LEFT JOIN|\)\) GROUP BY)/g;
const NUMBERED = 'CAST(file_row_number AS BIGINT) + 1 AS botrules_row';

/** The grouping query as one pass grouped by the raw values it reads (IPv4 addresses by their range class), counted. */
function onePass(sql) {
  const records = sql.slice(sql.indexOf('FROM (SELECT * EXCLUDE'), sql.indexOf(' AS t ') + ' AS t '.length);
  const blocks = sql.indexOf('LEFT JOIN botrules_ipv4_blocks');
  const joins = blocks < 0 ? '' : sql.slice(blocks, sql.search(/LEFT JOIN botrules_class_|\)\) GROUP BY ALL$/));
  const ipStart = sql.indexOf('CASE WHEN t.botrules_ipv4 IS NOT NULL THEN');
  const ipClass = ipStart < 0 ? 'CAST(NULL AS INTEGER)' : sql.slice(ipStart, sql.indexOf(' AS k3', ipStart));
  const firsts = sql.includes('t.botrules_row') ? ', min(t.botrules_row, 3) AS firsts' : '';
  const raw = 't.path, t.method, t.userAgent, CASE WHEN t.botrules_ipv4 IS NULL THEN t.ip END AS ip, t.asn, t.country, t.domain, t.deviceType, t.headers, t.query, t.botrules_qpath, t.custom';
  return `SELECT count(*) AS groups FROM (SELECT ${raw}, ${ipClass} AS ip_class, count(*) AS n${firsts} ${records}${joins} GROUP BY ALL)`;
}

const ONE_READING = 'CREATE OR REPLACE TEMP TABLE botrules_groups AS ';
const IPV4_NUMBER = /CASE WHEN regexp_full_match\(ip, '[^']*'\) THEN CAST\(CAST\(botrules_parts\[1\].*?\* 1 END AS botrules_ipv4/;
/** Every address taken for 198.12.0.0: one number, so one range class, with no test nor parse. */
const ONE_ADDRESS = 'CAST(3322675200 AS BIGINT) AS botrules_ipv4';
const ODD = /\(coalesce\(\(t\.botrules_code_0 & 1\).*\) AS botrules_odd FROM/;
/** Each map column as DuckDB's own text of it (quoted where it would confuse: read back as the same map), not its JSON. */
const castText = (sql) => MAP_FIELDS.reduce((form, field) => form.replace(mapJson(field), `CAST("${field}" AS VARCHAR) AS "${field}"`), sql);
/** Each map column kept a map, no text made of it, and grouped by its hash. */
const mapHashes = (sql) => MAP_FIELDS.reduce((form, field) => form.replace(mapJson(field), `"${field}" AS "${field}"`), sql)
  .replace(MAP_KEYS, 'hash(t."headers") AS k8, hash(t.query) AS k9, hash(t."custom") AS k10, t.botrules_qpath AS k9q');

/** The one reading's records and keys, counted with their keys hashed, not grouped. */
function counted(sql) {
  const inner = sql.slice(sql.indexOf('FROM (SELECT t.botrules_row') + 'FROM ('.length, sql.lastIndexOf(') GROUP BY ALL') - 1);
  return `${ONE_READING}SELECT count(*) AS n, sum(hash(botrules_odd, k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k9q) & 255) AS h FROM (${inner})`;
}

/** The forms of a Parquet file's one reading (a CREATE of the groups' table). */
function oneReadingForms(sql, keys) {
  return [
    ['as the engine runs it', sql],
    ['no IPv4 test', sql.replace(IPV4_TEST, 'TRUE')],
    ['no IPv4 number (one constant address)', sql.replace(IPV4_NUMBER, ONE_ADDRESS)],
    ["headers' text not grouped", sql.replace('CAST(t."headers" AS VARCHAR) AS k8,', "CASE WHEN t.headers IS NULL THEN NULL ELSE '1' END AS k8,")],
    ["query's text not grouped", sql.replace('CAST(t.query AS VARCHAR) AS k9,', "CASE WHEN t.query IS NULL THEN NULL ELSE '1' END AS k9,")],
    ["maps' texts grouped by their hashes", sql.replace(MAP_KEYS, 'hash(t."headers") AS k8, hash(t.query) AS k9, hash(t."custom") AS k10, hash(t.botrules_qpath) AS k9q')],
    ["maps as DuckDB's text, not JSON", castText(sql)],
    ["maps' JSON not made (maps grouped by their hashes)", mapHashes(sql)],
    ['no odd test', sql.replace(ODD, 'FALSE AS botrules_odd FROM')],
    ['class function not called', sql.replace(/botrules_class\(\d, CAST\(NULLIF\("\w+", ''\) AS VARCHAR\)\)/g, '2')],
    ['nothing grouped (rows: 1)', counted(sql)],
    ...keyForms(sql, keys),
  ];
}

/** Each form of a query ([label, sql]), from the one the engine runs; the forms that change nothing are left out. */
function forms(kind, sql, keys) {
  const wanted = ([label, form]) => label === 'as the engine runs it' || (form !== sql && (ONLY === undefined || ONLY.some((word) => label.includes(word))));
  if (kind === 'one reading') return oneReadingForms(sql, keys).filter(wanted);
  const all = [
    ['as the engine runs it', sql],
    ['no IPv4 test', sql.replace(IPV4_TEST, 'TRUE')],
    ["no headers' JSON text", sql.replace(HEADERS_JSON, 'CAST(NULL AS VARCHAR)')],
  ];
  if (kind === 'grouping') {
    all.push(
      ['no class-table joins', sql.replace(CLASS_JOIN, '').replace(/coalesce\(c\d+\.id, 0\)/g, '0').replace(/coalesce\(c\d+\.odd, FALSE\)/g, 'FALSE')],
      ['no NULLIF', sql.replace(/NULLIF\(("\w+"), ''\)/g, '$1')],
      ['unnumbered', sql.replace(NUMBERED, 'CAST(NULL AS BIGINT) AS botrules_row')],
      ['one pass by raw values (rows: groups)', onePass(sql)],
    );
  }
  return all.filter(wanted);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function child(shape, dir, file) {
  const { REPLAY_SHAPES } = await import('./replay-shapes.js');
  const { takeSnapshot } = await import('../dist/live/snapshot.js');
  const { DuckDBConnection } = await import('@duckdb/node-api');
  const original = { runAndReadAll: DuckDBConnection.prototype.runAndReadAll, run: DuckDBConnection.prototype.run };
  const format = file.endsWith('.parquet') ? 'parquet' : 'ndjson';
  const seen = new Set();
  const rows = [];
  const names = namesRead(REPLAY_SHAPES[shape]());
  const kindOf = (sql) => (sql.startsWith(ONE_READING) ? 'one reading' : sql.startsWith('SELECT grouping_id') ? 'distinct'
    : sql.startsWith('SELECT botrules_odd') && sql.includes('read_') ? 'grouping' : undefined);
  // The rows a form gives: the one reading's (it reads none) are the groups it put in its table.
  const rowsOf = async (connection, kind, label, query, values) => {
    if (kind === 'one reading') {
      await original.run.call(connection, query, values);
      return Number((await original.runAndReadAll.call(connection, 'SELECT count(*) FROM botrules_groups')).getRows()[0]?.[0]);
    }
    const result = await original.runAndReadAll.call(connection, query, values);
    return label.startsWith('one pass') ? Number(result.getRows()[0]?.[0]) : result.getRows().length;
  };
  let depth = 0;
  // The engine runs some queries with runAndReadAll, others (the groupings, the one reading) with run: both are timed, each kind once.
  for (const method of ['runAndReadAll', 'run']) {
    DuckDBConnection.prototype[method] = async function timed(sql, values) {
      const kind = kindOf(sql);
      if (depth > 0 || kind === undefined || seen.has(kind)) return original[method].call(this, sql, values);
      seen.add(kind);
      depth += 1;
      try {
        const keys = kind === 'one reading' ? { names, bits: await hashBits(this, original.runAndReadAll, names) } : undefined;
        const timings = forms(kind, sql, keys).map(([label, query]) => ({ label, query, cpu: [], wall: [], rows: 0 }));
        for (let rep = 0; rep < REPS; rep += 1) {
          for (const form of timings) {
            const [cpu, wall] = [process.cpuUsage(), performance.now()];
            form.rows = await rowsOf(this, kind, form.label, form.query, values);
            const used = process.cpuUsage(cpu);
            form.wall.push(performance.now() - wall);
            form.cpu.push((used.user + used.system) / 1000);
          }
        }
        for (const form of timings) rows.push(`| ${shape} | ${format} | ${kind} | ${form.label} | ${Math.round(median(form.cpu))} | ${Math.round(median(form.wall))} | ${form.rows} |`);
        return await original[method].call(this, sql, values);
      } finally {
        depth -= 1;
      }
    };
  }
  const name = `log.${format}`;
  writeReplayProject(dir, REPLAY_SHAPES[shape](), file, takeSnapshot, name);
  const { replayProject } = await import('../dist/engine/replay.js');
  await replayProject({ logs: [name], liveFile: 'live.json', engine: 'duckdb' }, { cwd: dir, env: () => undefined, debug: () => {}, notice: () => {} });
  process.stdout.write(`${rows.join('\n')}\n`);
}

if (process.argv[2] === '--child') await child(...process.argv.slice(3));
else {
  const work = mkdtempSync(path.join(os.tmpdir(), 'botrules-replay-work-'));
  try {
    const { ndjson, parquet } = await requestLogsIn(work, REQUESTS);
    process.stdout.write(`${REQUESTS} requests, ${os.cpus().length} cores, Node ${process.version}, ${REPS} repetitions, load ${os.loadavg()[0].toFixed(1)}\n\n`);
    process.stdout.write('| shape | log | query | form | CPU ms (median) | wall ms (median) | rows |\n|---|---|---|---|---:|---:|---:|\n');
    for (const shape of SHAPES) {
      for (const file of [parquet, ndjson].filter((one) => FORMATS.some((format) => one.endsWith(`.${format}`)))) {
        const out = spawnSync(process.execPath, [here, '--child', shape, mkdtempSync(path.join(work, `${shape}-`)), file], { encoding: 'utf8' });
        if (out.status !== 0) throw new Error(out.stderr);
        process.stdout.write(out.stdout);
      }
    }
    process.stdout.write(`\nload at the end ${os.loadavg()[0].toFixed(1)}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
