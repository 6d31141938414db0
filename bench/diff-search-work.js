// The behaviour diff's witness searches counted (docs/behaviour.md, "Exhaustive behaviour diff"):
// on a plan shape's rules (bench/plan-shapes.js) with 5% of them moved as apply.bench.js moves
// them (each right after a rule picked at random), the diff of the two lists is run in this
// process on the built modules (dist/), and every witness search (src/diff/model.ts `find`) is
// counted with its answer (a request, none, unknown) and the states it visited. Counts, not times:
// they repeat exactly on a loaded machine, and tell which answers the search's work goes to. The
// diff's CPU time in this process is printed beside them. Usage: node bench/diff-search-work.js
// (BENCH_SHAPES=scrapers,apis,… to choose; BENCH_RULES, default 5,000).
import { behaviourDiff } from '../dist/diff/diff.js';
import { Models } from '../dist/diff/model.js';
import { seededRandom } from '../dist/emulator/random.js';
import { normaliseLiveRule } from '../dist/semantics/normalise.js';
import { anyRuleSet } from './plan-shapes.js';
import { countWitnessSearches } from './witness-counts.js';

const RULES = Number(process.env.BENCH_RULES ?? 5_000);
const SHAPES = (process.env.BENCH_SHAPES ?? 'scrapers,apis,scopes,logins').split(',');
const MOVED_SHARE = 0.05;

/** Per answer: searches and the states they visited. */
const counts = countWitnessSearches(Models);

/** The live rules in priority order, and the same rules with MOVED_SHARE of them moved. */
function scenario(shape) {
  const live = anyRuleSet(shape, RULES).map((rule, i) => normaliseLiveRule(rule, `rule ${rule.ruleId}`, rule.ruleId, i));
  const declared = [...live];
  const next = seededRandom(42);
  for (let k = 0; k < Math.round(live.length * MOVED_SHARE); k += 1) {
    const [moved] = declared.splice(Math.floor(next() * declared.length), 1);
    declared.splice(Math.floor(next() * (declared.length + 1)), 0, moved);
  }
  return { live, declared };
}

console.log(`${RULES.toLocaleString('en')} rules per shape, ${MOVED_SHARE * 100}% moved; the diff of the two lists in this process.\n`);
console.log('| shape | diff classes | unchecked parts | CPU ms | searches with a request (states) | searches with none (states) | unknown (states) | states in all |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const shape of SHAPES) {
  const { live, declared } = scenario(shape);
  for (const kind of Object.keys(counts)) counts[kind] = [0, 0];
  const cpu = process.cpuUsage();
  const diff = behaviourDiff(live, declared);
  const used = process.cpuUsage(cpu);
  const classes = diff.changes.reduce((sum, change) => sum + change.regions.length, 0);
  const cell = ([searches, states]) => `${searches.toLocaleString('en')} (${states.toLocaleString('en')})`;
  const states = counts.request[1] + counts.unsat[1] + counts.unknown[1];
  console.log(`| ${shape} | ${classes} | ${diff.unchecked.length} | ${Math.round((used.user + used.system) / 1000)} | ${cell(counts.request)} | ${cell(counts.unsat)} | ${cell(counts.unknown)} | ${states.toLocaleString('en')} |`);
}
