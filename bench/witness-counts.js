// Every witness search of the region search (src/diff/model.ts `find`) counted by its answer (a
// request, none, unknown) with the states it visited (`nodes`, the search's own count, read after
// each search), for the benchmarks that count work instead of timing it: bench/diff-search-work.js
// in its own process, bench/plan-refutations.js in a module preloaded into the plan's.

/** Counts into `counts` (per answer: searches and states) every `find` of `Models` from now on; returns `counts`. */
export function countWitnessSearches(Models, counts = {}) {
  for (const kind of ['request', 'unsat', 'unknown']) counts[kind] = [0, 0];
  const find = Models.prototype.find;
  Models.prototype.find = function countedFind(trees) {
    const result = find.call(this, trees);
    const kind = 'request' in result ? 'request' : 'unknown' in result ? 'unknown' : 'unsat';
    counts[kind][0] += 1;
    counts[kind][1] += this.nodes;
    return result;
  };
  return counts;
}
