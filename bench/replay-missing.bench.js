// Replay's check of fields a log lacks (src/replay/missing.ts, docs/replay.md "Fields the log
// lacks"), CPU only: the compiled check (MissingFieldCheck.dependsOn, on the engine's verdicts
// with the leaves on lacking fields unknown; its time includes compiling the rules, at the first
// request lacking a field) against the reference evaluator's working of the same answer
// (combine and leafVerdict, rule by rule, as the check did before it was compiled), in one
// process, alternated three times, medians compared. Every live rule is touched, as for the
// comparison with production's decisions. The requests are the replay benchmark's, lacking
// country and ASN, under a CDN log's carriage (a few headers, no custom parameters). Both
// answers must be equal, request by request. `MISSING_BENCH_SIZE` (default 100,000),
// `MISSING_BENCH_SHAPES` (default generated,last,regions).
import os from 'node:os';
import { REPLAY_SHAPES } from './replay-shapes.js';
import { requestLine } from './replay-requests.js';
import { seededRandom } from '../dist/emulator/random.js';
import { combine, decide } from '../dist/evaluate/evaluate.js';
import { leafVerdict } from '../dist/evaluate/leaf.js';
import { fieldName, requestField } from '../dist/semantics/fields.js';
import { lackedFields } from '../dist/replay/coverage.js';
import { MissingFieldCheck, ruleFields } from '../dist/replay/missing.js';

const SIZE = Number(process.env.MISSING_BENCH_SIZE ?? 100_000);
const SHAPES = (process.env.MISSING_BENCH_SHAPES ?? 'generated,last,regions').split(',');
const carriage = { partialHeaders: ['cookie', 'referer', 'host'], noCustom: true };

/**
 * The reference: past the same gate (a request lacking no field a touched rule reads is decided
 * as read), each touched rule at or before the deciding one, its match with the leaves on lacking fields undecided.
 */
function reference(rules, gate) {
  const active = rules.flatMap((rule, index) => (rule.status === 'active' ? [{ rule, index, fields: ruleFields(rule) }] : []));
  const lacks = (leaf, lacked) => (requestField(leaf) === 'headers' ? !carriage.partialHeaders.includes(fieldName(leaf).toLowerCase()) : lacked.has(requestField(leaf)));
  return (request, [decision]) => {
    if (!gate.mayDependOn(request, carriage)) return [];
    const lacked = lackedFields(request, carriage);
    const blamed = new Set();
    if (decision.undecided !== undefined) return [];
    for (const { rule, index, fields } of active) {
      if (decision.index >= 0 && index > decision.index) break;
      if (![...fields].some((field) => lacked.has(field))) continue;
      const verdict = combine(rule.conditions.operator, rule.conditions.children, (group) =>
        combine(group.operator, group.children, (leaf) => (lacks(leaf, lacked) ? 'undecided' : leafVerdict(leaf, request))));
      if (verdict === 'undecided') for (const field of fields) if (lacked.has(field)) blamed.add(field);
    }
    return [...blamed];
  };
}

function cpuMs(requests, decisions, dependsOn) {
  const start = process.cpuUsage();
  const out = requests.map((request, i) => dependsOn(request, decisions[i]).join(','));
  const { user, system } = process.cpuUsage(start);
  return { ms: (user + system) / 1000, out };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`${SIZE} requests per shape, ${os.cpus().length} cores, Node ${process.version}, load ${os.loadavg()[0].toFixed(1)}`);
console.log('| rule shape | requests blamed | reference CPU ms (3 runs) | compiled CPU ms (3 runs) | compiled / reference (medians) |');
console.log('|---|---:|---|---|---:|');
for (const shape of SHAPES) {
  const rules = REPLAY_SHAPES[shape]();
  const next = seededRandom(SIZE);
  const requests = Array.from({ length: SIZE }, (_, i) => {
    const { country: _c, asn: _a, ...request } = JSON.parse(requestLine(next, i));
    return request;
  });
  const decisions = requests.map((request) => [decide(rules, request)]);
  const runs = { reference: [], compiled: [] };
  for (let round = 0; round < 3; round++) {
    const check = new MissingFieldCheck([{ rules, touched: () => true }]);
    const byReference = cpuMs(requests, decisions, reference(rules, check));
    const compiled = cpuMs(requests, decisions, (request, decided) => check.dependsOn(request, carriage, decided));
    const differs = byReference.out.findIndex((blamed, i) => blamed !== compiled.out[i]);
    if (differs >= 0) throw new Error(`${shape}: request ${differs} blamed ${compiled.out[differs]}, the reference ${byReference.out[differs]}`);
    runs.reference.push(byReference.ms);
    runs.compiled.push(compiled.ms);
    if (round === 0) runs.blamed = compiled.out.filter((blamed) => blamed !== '').length;
  }
  const show = (values) => values.map((ms) => Math.round(ms)).join(' / ');
  console.log(`| ${shape} | ${runs.blamed} | ${show(runs.reference)} | ${show(runs.compiled)} | ${(median(runs.compiled) / median(runs.reference)).toFixed(2)} |`);
}
