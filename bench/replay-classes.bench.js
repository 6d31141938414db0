// The duckdb engine's classing of distinct values (src/replay/duckdb/field-verdicts.ts): each
// field's distinct values of the replay benchmark's requests, asked about every leaf on the field
// of a rule shape's program, once as before (leafVerdict of every leaf, one letter each) and once
// looked up (FieldVerdicts.key), in the same run; the verdicts must agree (FieldVerdicts.marks). CPU ms of this process
// (process.cpuUsage), and the ratio. REPLAY_CLASSES_REQUESTS (default 1,000,000) sets how many
// requests give the values; REPLAY_BENCH_SHAPES the shapes.
import os from 'node:os';
import { leafVerdict } from '../dist/evaluate/leaf.js';
import { seededRandom } from '../dist/emulator/random.js';
import { FieldVerdicts } from '../dist/replay/duckdb/field-verdicts.js';
import { compileProgram } from '../dist/semantics/program.js';
import { REPLAY_SHAPES } from './replay-shapes.js';
import { requestLine } from './replay-requests.js';

const REQUESTS = Number(process.env.REPLAY_CLASSES_REQUESTS ?? 1_000_000);
const SHAPES = (process.env.REPLAY_BENCH_SHAPES ?? 'generated,themed,distinct,last,untuned,tenants,partners,regions,fleets').split(',');
const FIELDS = ['path', 'method', 'userAgent', 'asn', 'country', 'domain', 'deviceType', 'headers', 'query', 'custom'];

function distinctValues() {
  const values = new Map(FIELDS.map((field) => [field, new Map()]));
  const next = seededRandom(REQUESTS);
  for (let i = 0; i < REQUESTS; i += 1) {
    const request = JSON.parse(requestLine(next, i));
    for (const field of FIELDS) if (request[field] !== undefined) values.get(field).set(JSON.stringify(request[field]), request[field]);
  }
  return values;
}

function cpuMs(run) {
  const start = process.cpuUsage();
  const result = run();
  const used = process.cpuUsage(start);
  return [(used.user + used.system) / 1000, result];
}

const values = distinctValues();
process.stdout.write(`${REQUESTS} requests' distinct values, ${os.cpus().length} cores, Node ${process.version}, load ${os.loadavg()[0].toFixed(1)}\n\n`);
process.stdout.write('| rule shape | field | distinct values | leaves | every leaf asked, CPU ms | looked up, CPU ms | asked ÷ looked up |\n|---|---|---:|---:|---:|---:|---:|\n');
for (const shape of SHAPES) {
  const rules = REPLAY_SHAPES[shape]().map((rule) => ({ status: 'active', actions: ['block'], description: '', ...rule }));
  const program = compileProgram([rules]);
  for (const field of FIELDS) {
    const leaves = program.leaves.filter((leaf) => leaf.field === field);
    const parts = [...values.get(field).values()].map((value) => ({ [field]: value }));
    if (leaves.length === 0 || parts.length === 0) continue;
    const ask = () => parts.map((part) => leaves.map(({ leaf }) => { const verdict = leafVerdict(leaf, part); return verdict === 'undecided' ? 'u' : verdict ? 't' : 'f'; }).join(''));
    // Once untimed: the leaves' tests and patterns compiled (both ways use them) before either is timed.
    ask();
    const [askedMs, asked] = cpuMs(ask);
    const verdicts = new FieldVerdicts(leaves);
    const [lookedUpMs, lookedUp] = cpuMs(() => parts.map((part) => verdicts.key(part)));
    if (lookedUp.length !== parts.length || asked.some((marks, at) => marks !== verdicts.marks(parts[at]))) throw new Error(`${shape} ${field}: the looked-up verdicts differ from the leaves' own`);
    process.stdout.write(`| ${shape} | ${field} | ${parts.length} | ${leaves.length} | ${askedMs.toFixed(0)} | ${lookedUpMs.toFixed(0)} | ${(askedMs / lookedUpMs).toFixed(2)}× |\n`);
  }
}
