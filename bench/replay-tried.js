// How many rules the js engine's compiled sets try per request (condition trees asked, live and
// declared sets together), on the first requests of the replay benchmark's log of that size:
// a count, not a time, so it compares two commits without the machine's noise. Run after
// `npm run compile`: `node bench/replay-tried.js [SHAPES] [REQUESTS]` (default: every shape of
// bench/replay-shapes.js, 20,000 requests of the 100,000-request log).
import { normaliseRule } from '../dist/semantics/normalise.js';
import { compileRuleSets } from '../dist/replay/compiled.js';
import { ProgramVerdicts } from '../dist/evaluate/program-verdicts.js';
import { seededRandom } from '../dist/emulator/random.js';
import { REPLAY_SHAPES } from './replay-shapes.js';
import { requestLine } from './replay-requests.js';

const SHAPES = (process.argv[2] ?? Object.keys(REPLAY_SHAPES).join(',')).split(',');
const REQUESTS = Number(process.argv[3] ?? 20_000);
const LOG_SIZE = 100_000;

let asked = 0;
const tree = ProgramVerdicts.prototype.tree;
ProgramVerdicts.prototype.tree = function counted(id) {
  asked += 1;
  return tree.call(this, id);
};

const next = seededRandom(LOG_SIZE);
const requests = Array.from({ length: REQUESTS }, (_, i) => JSON.parse(requestLine(next, i)));
for (const shape of SHAPES) {
  // As bench/replay.bench.js: the declared set changes every 20th rule's actions.
  const live = REPLAY_SHAPES[shape]().map((rule) => normaliseRule(rule));
  const declared = live.map((rule, i) => (i % 20 === 0 ? { ...rule, actions: ['hardBlock'] } : rule));
  const sets = compileRuleSets([live, declared]);
  asked = 0;
  for (const request of requests) sets.decide(request);
  process.stdout.write(`${shape}: ${(asked / REQUESTS).toFixed(2)} rules tried per request\n`);
}
