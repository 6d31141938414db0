// Whether the order search (src/diff/order/) would gain from not searching the states a witness
// already proves open (issue #42). When the planner's order opens a window, the local search
// (local-order.ts) first tries the order with the PATCH that closes the first class's window sent
// right before the one that opens it; each state of that order in between is a state of the
// planner's order plus that one PATCH, and a PATCH changes the outcome only of requests its rule
// matches. So a state whose planner's state is open for a class whose witness the moved rule
// (before or after the plan) does not match is open too, without a search. This benchmark counts
// those states for the first order tried, checks the claim against the search over all of that
// order's new states (the one the local search runs), and times that search against one over the
// states left when the proven ones are taken out. Per shape (5,000 live rules, 5% moved and 10%
// edited, as `npm run bench -- apply` prepares them), in this process, CPU time (user + system),
// median of BENCH_ROUNDS rounds (default 3), the two searches in turn. BENCH_SHAPES sets the
// shapes (default networks,apis,scrapers,gateways), BENCH_RULES the live rules (default 5,000).
// Usage: `npm run bench -- transition-witness`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import os from 'node:os';
import { conditionsVerdict } from '../dist/evaluate/evaluate.js';
import { finalState, StateWalk } from '../dist/diff/order/states.js';
import { sendInOrder, unitsOf } from '../dist/diff/order/units.js';
import { checkStates } from '../dist/diff/order/windows.js';
import { cpuMs, median, prepareTransitionProject } from './transition-project.js';

const LIVE_RULES = Number(process.env.BENCH_RULES ?? 5_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SHAPES = (process.env.BENCH_SHAPES ?? 'networks,apis,scrapers,gateways').split(',');
const TOKEN = 'bench-transition-witness';
/** No deadline in practice: a search that ran out of time would not measure the search. */
const DEADLINE_MS = 600_000;

/** Index k: the rules after the first k PATCHes of `units` (equal lists are one array). */
function statesOf(live, steps, units) {
  const walk = new StateWalk(live);
  const states = [walk.state()];
  for (const patch of sendInOrder(live, steps, units)) {
    walk.send(patch);
    states.push(walk.state());
  }
  return states;
}

/** Checks states[1 … n−1] in one search; index k: the StateCheck of states[k]. */
function checkAll(states, final) {
  const distinct = [];
  const slot = [undefined];
  for (let k = 1; k < states.length - 1; k += 1) {
    if (states[k] !== distinct[distinct.length - 1]) distinct.push(states[k]);
    slot.push(distinct.length);
  }
  const checked = checkStates([states[0], ...distinct, final], { deadline: Date.now() + DEADLINE_MS });
  return slot.map((index) => (index === undefined ? undefined : checked.states.get(index)));
}

/** The first class's span, as the local search reads them (local-order.ts, search.ts openSpans). */
function firstSpan(checks) {
  const spans = new Map();
  checks.forEach((check, k) => {
    for (const region of check?.open ?? []) {
      const span = spans.get(region.description);
      if (span === undefined) spans.set(region.description, { first: k, last: k });
      else span.last = k;
    }
  });
  return spans.values().next().value;
}

/** The search over `lists` of one candidate's states (each distinct list once). */
function searchOf(start, lists, final) {
  return () => checkStates([start, ...new Set(lists), final], { deadline: Date.now() + DEADLINE_MS });
}

async function benchShape(work, shape) {
  const { live, steps } = await prepareTransitionProject(work, shape, LIVE_RULES, TOKEN);
  const planner = unitsOf(steps);
  const plannerStates = statesOf(live, steps, planner);
  const final = finalState(live, steps);
  const plannerChecks = checkAll(plannerStates, final);
  const plannerOpen = plannerChecks.filter((check) => check !== undefined && check.open.length > 0).length;
  const span = firstSpan(plannerChecks);
  if (span === undefined) return { shape, steps: steps.length, plannerOpen };
  // The closer (the unit at `last`) sent right before the opener (at `first − 1`): state k of the
  // candidate, for k in [first, last], is the planner's state k − 1 with the closer sent.
  const moved = planner[span.last];
  const candidate = [...planner.slice(0, span.first - 1), moved, ...planner.slice(span.first - 1, span.last), ...planner.slice(span.last + 1)];
  const candidateStates = statesOf(live, steps, candidate);
  const versions = [plannerStates[0], final].map((rules) => rules.find((rule) => rule.ruleId === moved.ruleId)).filter((rule) => rule?.status === 'active');
  const misses = (witness) => versions.every((rule) => conditionsVerdict(rule.conditions, witness) === false);
  const proven = new Set();
  const fresh = [];
  for (let k = span.first; k <= span.last; k += 1) {
    fresh.push(k);
    if (plannerChecks[k - 1]?.open.some((region) => misses(region.witness))) proven.add(k);
  }
  const all = searchOf(plannerStates[0], fresh.map((k) => candidateStates[k]), final);
  const left = searchOf(plannerStates[0], fresh.filter((k) => !proven.has(k)).map((k) => candidateStates[k]), final);
  all(); // warm-up
  const [allMs, leftMs] = [[], []];
  let whole;
  for (let round = 0; round < ROUNDS; round += 1) {
    const searched = cpuMs(all);
    allMs.push(searched.ms);
    whole = searched.result;
    leftMs.push(cpuMs(left).ms);
  }
  // The claim, checked: every proven state is open in the search over all the new states.
  const distinct = [...new Set(fresh.map((k) => candidateStates[k]))];
  const openInWhole = (k) => (whole.states.get(distinct.indexOf(candidateStates[k]) + 1)?.open.length ?? 0) > 0;
  const provenOpen = [...proven].filter(openInWhole).length;
  return { shape, steps: steps.length, plannerOpen, span, fresh: fresh.length, freshOpen: fresh.filter(openInWhole).length, proven: proven.size, provenOpen, allMs: median(allMs), leftMs: median(leftMs) };
}

const work = await mkdtemp(join(tmpdir(), 'botrules-transition-witness-'));
try {
  const results = [];
  for (const shape of SHAPES) results.push(await benchShape(work, shape));
  const load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
  console.log(`${LIVE_RULES} live rules per shape, 5% moved and 10% edited; CPU ms, median of ${ROUNDS} rounds; load average at the end ${load}.\n`);
  const header = ['shape', 'PATCHes', 'planner open states', 'first window tried', 'new states', 'open', 'proven open by a witness', 'of those open', 'search, new states ms', 'search, unproven states ms', 'unproven / new'];
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => ' --- ').join('|')}|`);
  for (const r of results) {
    const cells = r.span === undefined
      ? [r.shape, r.steps, r.plannerOpen, 'none', '', '', '', '', '', '', '']
      : [r.shape, r.steps, r.plannerOpen, `${r.span.first}–${r.span.last}`, r.fresh, r.freshOpen, r.proven, r.provenOpen, r.allMs.toFixed(0), r.leftMs.toFixed(0), (r.leftMs / r.allMs).toFixed(2)];
    console.log(`| ${cells.join(' | ')} |`);
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
