// What one region search of the transition check (docs/behaviour.md, "Safe transitions") costs
// against the number of states it is given (issue #42). The ordering searches the planner's order
// whole, then each other order it tries over the states that order has not shared with one checked
// before (src/diff/order/search.ts): when a search's cost hardly depends on its states, each
// order tried pays about what the planner's did. Per shape (5,000 live rules, 5% moved and 10%
// edited, as `npm run bench -- apply` prepares them), in this process, CPU time (user + system)
// of: the whole ordering (chooseOrder), and one search over [start, k of the planner's states,
// final] for k = 0, 1, 4, 16, 64 and all of them (spread evenly over the order), the same
// function the ordering calls (checkStates). Median of BENCH_ROUNDS rounds (default 3), each
// case once per round in turn. BENCH_SHAPES sets the shapes (default scrapers,apis,scopes,logins),
// BENCH_RULES the live rules (default 5,000). Usage: `npm run bench -- transition-searches`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import os from 'node:os';
import { chooseOrder } from '../dist/diff/order/search.js';
import { finalState, StateWalk } from '../dist/diff/order/states.js';
import { checkStates } from '../dist/diff/order/windows.js';
import { cpuMs, median, prepareTransitionProject } from './transition-project.js';

const LIVE_RULES = Number(process.env.BENCH_RULES ?? 5_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SHAPES = (process.env.BENCH_SHAPES ?? 'scrapers,apis,scopes,logins').split(',');
const STATE_COUNTS = [0, 1, 4, 16, 64];
const TOKEN = 'bench-transition-searches';
/** No deadline in practice: a search that ran out of time would not measure the search. */
const DEADLINE_MS = 600_000;

/** The planner's order's states, each list once (a PATCH that changed only a description leaves the same list). */
function plannerStates(live, steps) {
  const walk = new StateWalk(live);
  const states = [];
  for (const step of steps.slice(0, -1)) {
    walk.send(step);
    if (walk.state() !== states[states.length - 1]) states.push(walk.state());
  }
  return states;
}

function spread(states, count) {
  if (count >= states.length) return states;
  return Array.from({ length: count }, (_, i) => states[Math.floor((i * states.length) / count)]);
}

async function benchShape(work, shape) {
  const { live, steps } = await prepareTransitionProject(work, shape, LIVE_RULES, TOKEN);
  const start = new StateWalk(live).state();
  const final = finalState(live, steps);
  const states = plannerStates(live, steps);
  const counts = [...STATE_COUNTS, Infinity];
  const search = (count) => checkStates([start, ...spread(states, count), final], { deadline: Date.now() + DEADLINE_MS });
  search(1); // warm-up
  const orderMs = [];
  const searchMs = counts.map(() => []);
  let chosen;
  let whole;
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = cpuMs(() => chooseOrder(live, steps, { deadline: Date.now() + DEADLINE_MS }));
    orderMs.push(order.ms);
    chosen = order.result.check;
    counts.forEach((count, i) => {
      const searched = cpuMs(() => search(count));
      searchMs[i].push(searched.ms);
      whole = searched.result;
    });
  }
  // The last search is over every state of the planner's order: its open states are the planner's.
  const plannerOpen = [...whole.states.values()].filter((state) => state.open.length > 0).length;
  return { shape, steps: steps.length, states: states.length, plannerOpen, chosen, orderMs: median(orderMs), searches: counts.map((count, i) => ({ count, ms: median(searchMs[i]) })) };
}

const work = await mkdtemp(join(tmpdir(), 'botrules-transition-searches-'));
try {
  const results = [];
  for (const shape of SHAPES) results.push(await benchShape(work, shape));
  const load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
  console.log(`${LIVE_RULES} live rules per shape, 5% moved and 10% edited; CPU ms, median of ${ROUNDS} rounds; load average at the end ${load}.\n`);
  const header = ['shape', 'PATCHes', 'distinct states', 'planner open states', 'order chosen', 'windows chosen', 'ordering ms', ...STATE_COUNTS.map((count) => `search, ${count} states ms`), 'search, all states ms'];
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => ' --- ').join('|')}|`);
  for (const r of results) {
    const cells = [r.shape, r.steps, r.states, r.plannerOpen, r.chosen.order, r.chosen.windows.length, r.orderMs.toFixed(0), ...r.searches.map((s) => s.ms.toFixed(0))];
    console.log(`| ${cells.join(' | ')} |`);
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
