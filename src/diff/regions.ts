// Every class of requests whose deciding outcomes under several rule sets are "interesting"
// (they differ, for the behaviour diff), each with the conditions that characterise it and one
// request the evaluator confirms (docs/behaviour.md, "Exhaustive behaviour diff"). The rule sets
// are walked side by side: where a rule's match is not yet known, the search splits into "it
// matches" (one branch per way its conditions can match, whose leaves become the region's
// conditions) and "it does not match" (its tree joins the trees no request of the branch may
// match). A concrete request (model.ts) is kept for every state, so a branch no request can
// reach is dropped at once. Nothing enumerates the product of the fields' values.
import type { EvaluationOptions } from '../evaluate/leaf.js';
import type { TestRequest } from '../evaluate/request.js';
import { Assignment, AtomTable, type AtomTree } from './atoms.js';
import { AtomWays, sameFromHere, splitIndex } from './set-walk.js';
import { LockstepRun } from './lockstep.js';
import { activeEntries, NO_RULE_OUTCOME, uncheckedRules, OUT_OF_TIME, outcomeKey, type DecidedOutcome, type Entry, type RegionOptions, type RegionOutcome, type RegionSearch } from './entries.js';
import { regionDescription } from './describe.js';
import { searchInParts } from './changed-search.js';
import type { RuleLists } from './list-delta.js';
import { Models } from './model.js';
import { cannotBothHold } from './literal-pairs.js';
import { Settle } from './settle.js';
import { TreeStack } from './tree-stack.js';
import { RuleAbove } from './rule-above.js';
import { Refutations, SharedRefutations } from './refutations.js';
import { exactLeaf } from './values.js';
import { WitnessCheck } from './confirm.js';
import { RequestVerdicts } from './request-verdicts.js';
import { FoundRegions } from './found-regions.js';
import { SearchPace } from './search-pace.js';

export type { Region, RegionOptions, RegionSearch } from './entries.js';
export { OUT_OF_TIME } from './entries.js';

/**
 * `ruleSets` each in priority order; paused rules are skipped, as decide() skips them. Only the
 * parts where the lists differ are searched (changed-parts.ts). `interesting` and `hopeless` are
 * asked at every step, of arrays refilled between calls: they read the outcomes and keep none.
 */
export function regionsWhere(ruleSets: RuleLists, interesting: (outcomes: readonly RegionOutcome[]) => boolean, options: RegionOptions = {}): RegionSearch {
  return searchInParts(ruleSets, interesting, options, (sets, wanted, partOptions) => new Search(sets, wanted, partOptions).run());
}

class Search {
  /** Per set: its entries' numbers (entries.ts), and the entries and their ids by number. */
  private readonly sets: Int32Array[];
  private readonly entries: Entry[];
  private readonly idOf: Int32Array;
  private readonly sharedTail: number[];
  private readonly boringFrom: boolean[];
  /** Per conditionsId: its tree by atoms, whose truth is asked without a look-up per leaf. */
  private readonly atomTrees: AtomTree[];
  private readonly table = new AtomTable();
  private readonly ways = new AtomWays(this.table);
  private readonly assignment: Assignment;
  private readonly models: Models;
  private readonly evaluation: EvaluationOptions;
  /** Trees no request of the current state matches, and their conditions ids (counted). */
  private readonly trees = new TreeStack((leaf) => this.table.of(leaf)?.id, this.table.atoms);
  /**
   * Per conditions id: how many times its tree is on the stack. An array, not a Map: the stack
   * grows and shrinks at every step, and a Map's table was reallocated as it did (garbage that
   * outlived the young generation).
   */
  private readonly notMatching: Int32Array;
  private model: TestRequest = { path: '/', method: 'GET' };
  private readonly found = new FoundRegions();
  private readonly settle: Settle;
  private readonly witnesses: WitnessCheck;
  private readonly pace: SearchPace;
  private readonly ruleAbove: RuleAbove;
  /**
   * Only where every answer of the witness search is exact (values.ts exactLeaf): elsewhere the
   * search in another state may answer "unknown" where a refutation kept proves there is no
   * request, and the plan would no longer list those rules as unchecked. Shared with the plan's
   * other searches through options.refutations, read and written only by searches as exact.
   */
  private readonly refutations: Refutations | undefined;
  /** maxRegions reached: the search is over, nothing is left unchecked that matters to the caller. */
  private enough = false;

  constructor(
    ruleSets: RuleLists,
    private readonly interesting: (outcomes: readonly RegionOutcome[]) => boolean,
    private readonly options: RegionOptions,
  ) {
    this.evaluation = options.evaluation ?? {};
    const entries = activeEntries(ruleSets, this.table, interesting);
    this.sets = entries.lists;
    this.entries = entries.entries;
    this.idOf = entries.idOf;
    this.sharedTail = entries.sharedTail;
    this.boringFrom = entries.boringFrom;
    this.atomTrees = entries.trees;
    this.lockstepOutcomes = new Array<DecidedOutcome>(this.sets.length);
    this.notMatching = new Int32Array(entries.conditionsCount);
    this.assignment = new Assignment(this.table, this.evaluation);
    this.settle = new Settle({ sets: this.sets, entries: this.entries, atomTrees: this.atomTrees, notMatching: this.notMatching, assignment: this.assignment, evaluation: this.evaluation });
    const verdicts = new RequestVerdicts(this.table, this.evaluation);
    this.models = new Models(this.table, this.assignment, this.evaluation, verdicts, this.treeAt, options.deadline);
    this.pace = new SearchPace(options.deadline, options.onProgress, this.sets.reduce((sum, numbers) => sum + numbers.length, 0));
    this.ruleAbove = new RuleAbove(this.trees, this.assignment, this.atomTrees, this.conditionsIds, { has: (id) => (this.notMatching[id] as number) > 0 });
    if (this.table.atoms.every((atom) => exactLeaf(atom.leaf))) {
      const store = options.refutations;
      const shared = store === undefined ? undefined : new SharedRefutations(store.ways(this.evaluation), this.table.atoms, this.entries, entries.conditionsCount);
      this.refutations = new Refutations(this.assignment, this.table.atoms, (id) => (this.notMatching[id] as number) > 0, shared);
    }
    this.witnesses = new WitnessCheck(entries, verdicts);
  }

  run(): RegionSearch {
    this.explore(this.sets.map(() => 0), this.sets.map(() => undefined), true);
    return this.found.result();
  }

  /**
   * Walks the sets from `start` under the current state: each loop step settles the rules whose
   * match is known and splits on the first that is not. `decidedBefore[i]`: set i's outcome, once known.
   */
  private explore(start: readonly number[], decidedBefore: readonly (DecidedOutcome | undefined)[], top = false): void {
    const pos = [...start];
    const decided = [...decidedBefore];
    // The undecided sets, ascending: the transition check walks hundreds of lists, most decided
    // after a few steps, and each step asks only about these.
    const open: number[] = [];
    for (let i = 0; i < decided.length; i++) if (decided[i] === undefined) open.push(i);
    const trees = this.trees.length;
    const model = this.model;
    const run = new LockstepRun(this.sets, this.idOf);
    try {
      for (;;) {
        if (this.enough) return;
        if (this.pace.outOfTime()) {
          this.found.addUnchecked(OUT_OF_TIME, this.pendingRules(pos, decided));
          return;
        }
        if (run.reaches(pos, open)) this.settle.inStep(run, pos, decided, open);
        else this.settle.all(pos, decided, open);
        if (open.length === 0) {
          this.emit(decided as DecidedOutcome[]);
          return;
        }
        if (sameFromHere(this.sets, this.sharedTail, this.boringFrom, pos, open) || this.options.hopeless?.(decided) === true) return;
        // Every undecided list at a rule of one id: the first is split on (splitIndex would choose it).
        const inRun = run.covers(pos, open) || run.start(pos, open);
        const inStep = inRun || open.length === 1;
        const index = inStep ? (open[0] as number) : splitIndex(this.sets, this.idOf, pos, open);
        const entry = this.entries[(this.sets[index] as Int32Array)[pos[index] as number] as number] as Entry;
        if (!inStep || this.matchCanMatter(entry, decided, open, inRun ? run : undefined)) this.splitOnMatch(index, entry, pos, decided);
        if (!this.addMustNotMatch(entry)) return;
        pos[index] = (pos[index] as number) + 1;
        if (top) this.pace.progress(pos);
      }
    } finally {
      while (this.trees.length > trees) this.removeMustNotMatch();
      this.model = model;
    }
  }

  /**
   * Every undecided set stands at this same rule: false when the outcomes it would give are not
   * interesting, then "it matches" needs no search.
   */
  private matchCanMatter(entry: Entry, decided: readonly (DecidedOutcome | undefined)[], open: readonly number[], run: LockstepRun | undefined): boolean {
    // No list decided (the walk's top level): every list would decide the entry's outcome, asked once per outcome already.
    if (open.length === this.sets.length && entry.boring !== undefined) return !entry.boring;
    // Through a run no list is decided: outcomes alike in what `interesting` reads of them are asked once.
    const kind = run === undefined ? undefined : this.options.outcomeKind?.(entry.outcome);
    const known = kind === undefined ? undefined : run?.answers.get(kind);
    if (known !== undefined) return known;
    const outcomes = this.lockstepOutcomes;
    for (let i = 0; i < outcomes.length; i++) outcomes[i] = decided[i] ?? entry.outcome;
    const answer = this.interesting(outcomes);
    if (kind !== undefined) run?.answers.set(kind, answer);
    return answer;
  }

  /** matchCanMatter's outcomes, one array refilled (the predicates keep none: changed-search.ts). */
  private readonly lockstepOutcomes: DecidedOutcome[];

  /** "The rule matches": one branch per way its conditions can match. */
  private splitOnMatch(index: number, entry: Entry, pos: readonly number[], decided: readonly (DecidedOutcome | undefined)[]): void {
    const ways = this.ways.of(entry.rule.conditions);
    if (ways === undefined) {
      this.found.addUnchecked('a rule whose conditions can match in too many ways to split on', [entry.rule.name]);
      return;
    }
    for (const way of ways) {
      if (way.some((atom) => atom !== undefined && this.assignment.truthOf(atom) === false)) continue;
      const size = this.assignment.size;
      // A leaf pushed first may fix its field so that a later leaf of the way cannot hold.
      const possible = way.every((atom) => {
        const truth = atom === undefined ? false : this.assignment.truthOf(atom);
        if (atom === undefined || truth !== 'undecided') return truth !== false;
        // No request can meet the leaf and what the state requires of its field: no witness search (literal-pairs.ts).
        if (this.assignment.fieldLiterals(atom.field).some((known) => cannotBothHold(known, { atom, holds: true }, this.evaluation))) return false;
        this.assignment.push(atom, true);
        return true;
      });
      // Rules above that match every request of the way: none reaches this rule, no witness search
      // (docs/behaviour.md, "Safe transitions", in proportion to the change). One such rule is
      // found by the literals alone; several, as a witness search for the way found them before.
      if (!possible || this.refutations?.refutes(way) === true || this.ruleAbove.matches(way)) {
        this.assignment.popTo(size);
        continue;
      }
      const found = this.models.find(this.trees);
      if ('request' in found) {
        this.model = found.request;
        this.explore(pos, decided.map((outcome, i) => (i === index ? entry.outcome : outcome)));
      } else if ('unknown' in found) {
        this.found.addUnchecked(found.unknown, uncheckedRules(entry, found.rules));
      } else this.refutations?.learn(way, found.blamed, Array.from(found.trees, this.conditionsIdAt));
      this.assignment.popTo(size);
      if (this.pace.timedOut || this.enough) return;
    }
  }

  /** "The rule does not match": false when no request of the state is left (or none could be found). */
  private addMustNotMatch(entry: Entry): boolean {
    const conditions = entry.rule.conditions;
    this.trees.push(conditions, this.atomTrees[entry.conditionsId]);
    this.notMatching[entry.conditionsId] = (this.notMatching[entry.conditionsId] as number) + 1;
    this.conditionsIds.push(entry.conditionsId);
    if (this.models.stillFits(this.model, this.atomTrees[entry.conditionsId] as AtomTree)) return true;
    const found = this.models.find(this.trees);
    if ('request' in found) {
      this.model = found.request;
      return true;
    }
    if ('unknown' in found) this.found.addUnchecked(found.unknown, uncheckedRules(entry, found.rules));
    return false;
  }

  private readonly conditionsIds: number[] = [];

  /** The tree at a position of the stack, by atoms, and its conditions id. */
  private readonly treeAt = (at: number): AtomTree => this.atomTrees[this.conditionsIds[at] as number] as AtomTree;
  private readonly conditionsIdAt = (at: number): number => this.conditionsIds[at] as number;

  private removeMustNotMatch(): void {
    this.trees.pop();
    const id = this.conditionsIds.pop() as number;
    this.notMatching[id] = (this.notMatching[id] as number) - 1;
  }

  /** Records the region of the current state when its outcomes are interesting and the evaluator confirms them. */
  private emit(outcomes: readonly DecidedOutcome[]): void {
    if (!this.interesting(outcomes)) return;
    const witness = this.model;
    const literals = this.assignment.literals();
    const key = this.found.keyOf(outcomes, literals);
    if (this.found.has(key)) return;
    const confirmed = this.witnesses.confirm(witness);
    if (confirmed.undecided !== undefined) {
      this.found.addUnchecked('a regular expression ran out of its time budget on the example request', [confirmed.undecided.rule.name]);
      return;
    }
    const mismatch = confirmed.deciding.findIndex((entry, i) => outcomeKey(entry?.outcome ?? NO_RULE_OUTCOME) !== outcomeKey(outcomes[i] as DecidedOutcome));
    if (mismatch !== -1) {
      this.found.addUnchecked('the example request the search found is decided otherwise by the evaluator', [outcomes[mismatch]?.rule ?? '(no rule)']);
      return;
    }
    const constraints = literals.map(({ atom, holds }) => ({ leaf: atom.leaf, holds }));
    this.found.add(key, { description: regionDescription(constraints), constraints, witness, outcomes: this.found.copies(outcomes) });
    if (this.options.maxRegions !== undefined && this.found.size >= this.options.maxRegions) this.enough = true;
  }

  private pendingRules(pos: readonly number[], decided: readonly (DecidedOutcome | undefined)[]): string[] {
    return this.sets.flatMap((numbers, i) => (decided[i] === undefined && pos[i] !== undefined && pos[i] < numbers.length ? [(this.entries[numbers[pos[i]] as number] as Entry).rule.name] : []));
  }
}
