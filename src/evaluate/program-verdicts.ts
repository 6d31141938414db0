// The JavaScript back end of the compiled rule set (semantics/program.ts; docs/design.md, "One
// rule engine"): the verdicts of its leaves and condition trees, each worked out by the
// reference evaluator's own compiled leaf test (leaf.ts), so they are its verdicts, and
// remembered. One class, two views of the same compiled leaves, because the callers ask in two
// ways:
// - per request (replay): every distinct leaf and tree is decided at most once for the request
//   begun (a themed rule set repeats `path $startsWith /account` across hundreds of rules, and
//   "before" and "after" differ in a few rules); the memory is one slot per leaf and tree, since a
//   log brings millions of distinct values and a per-value memory would grow with them (replay's
//   check of fields a log lacks asks it too, with chosen leaves unknown: treeWithout);
// - per value (the analysis' candidate requests, the behaviour diff's fixed fields): a leaf's
//   verdict depends only on the value in its field, and these callers ask few values again and
//   again, so each leaf remembers its verdict per value for as long as the verdicts are kept.
import type { Leaf, NormalRule } from '../semantics/model.js';
import { fieldKey } from '../semantics/fields.js';
import type { ProgramGroup, ProgramLeaf, ProgramSet, ProgramTree, RuleProgram } from '../semantics/program.js';
import type { Decision } from './evaluate.js';
import { leafPatterns, leafTest, MATCH_WHEN_ABSENT, type EvaluationOptions, type PresentTest, type Verdict } from './leaf.js';
import { budgetedAnswers, interruptions, type CompiledPattern } from './pattern.js';
import { fieldOf, type TestRequest } from './request.js';

/** A verdict as a small number, so the per-request cache is a byte array. */
const FALSE = 0;
const TRUE = 1;
const UNDECIDED = 2;
const VERDICTS: readonly Verdict[] = [false, true, 'undecided'];

export class ProgramVerdicts {
  private readonly leaves: RuleProgram<NormalRule>['leaves'];
  private readonly trees: readonly ProgramTree[];
  // The per-request view's compiled leaves and memory, made when it is first used (prepare):
  // the per-value view needs none of them.
  private tests: PresentTest[] = [];
  /** Each leaf's verdict when the request does not carry its field. */
  private absent: number[] = [];
  /** Per leaf whose patterns V8 runs under the time budget: its field's patterns and its own among them. */
  private budgeted: (BudgetedLeaf | undefined)[] = [];
  // Per request: a slot holds a verdict when its stamp is the current generation.
  private leafStamps = new Uint32Array(0);
  private leafVerdicts = new Uint8Array(0);
  private treeStamps = new Uint32Array(0);
  private treeVerdicts = new Uint8Array(0);
  private prepared = false;
  private generation = 0;
  private request: TestRequest = {};
  /** Per leaf, its verdict by value (the per-value view): made as asked, for leaves added to the program since too. */
  private readonly byValue: (Map<string, Verdict> | undefined)[] = [];
  /** Per leaf, its compiled test for the per-value view, made when first asked (one per leaf, not one per value). */
  private readonly valueTests: (PresentTest | undefined)[] = [];

  constructor(program: Pick<RuleProgram<NormalRule>, 'leaves' | 'trees'>, readonly options: EvaluationOptions = {}) {
    this.leaves = program.leaves;
    this.trees = program.trees;
  }

  private prepare(): void {
    if (this.prepared) return;
    this.prepared = true;
    this.tests = this.leaves.map(({ leaf }) => leafTest(leaf, this.options));
    this.absent = this.leaves.map(({ leaf }) => (MATCH_WHEN_ABSENT.has(leaf.operator) ? TRUE : FALSE));
    this.budgeted = budgetedLeaves(this.leaves.map(({ leaf }) => leaf), this.options);
    this.leafStamps = new Uint32Array(this.leaves.length);
    this.leafVerdicts = new Uint8Array(this.leaves.length);
    this.treeStamps = new Uint32Array(this.trees.length);
    this.treeVerdicts = new Uint8Array(this.trees.length);
  }

  /** The per-value view: the leaf's verdict for a request that carries `value` in its field (undefined: does not carry it). */
  value(id: number, value: string | undefined): Verdict {
    const leaf = (this.leaves[id] as RuleProgram<NormalRule>['leaves'][number]).leaf;
    if (value === undefined) return MATCH_WHEN_ABSENT.has(leaf.operator);
    // Grown without holes, so the list stays a plain array however the ids are first asked.
    while (this.byValue.length <= id) this.byValue.push(undefined);
    let known = this.byValue[id];
    if (known === undefined) this.byValue[id] = known = new Map();
    let verdict = known.get(value);
    if (verdict === undefined) {
      while (this.valueTests.length <= id) this.valueTests.push(undefined);
      let test = this.valueTests[id];
      if (test === undefined) this.valueTests[id] = test = leafTest(leaf, this.options);
      known.set(value, (verdict = test(value)));
    }
    return verdict;
  }

  /** The per-request view. Every verdict remembered for a request so far is forgotten: the next questions are about `request`. */
  begin(request: TestRequest): void {
    this.prepare();
    // Stamps wrap after 2^32 - 1 requests: then every slot is cleared once.
    this.generation = this.generation === 0xffffffff ? 1 : this.generation + 1;
    if (this.generation === 1) {
      this.leafStamps.fill(0);
      this.treeStamps.fill(0);
    }
    this.request = request;
  }
  /** The leaf's patterns on its field's budgeted answers, when V8 runs every one of them under the budget. */
  budgetedLeaf(leaf: Leaf): BudgetedLeaf | undefined {
    this.prepare();
    const field = this.budgeted.find((known) => known !== undefined && known.key === fieldKey(leaf))?.field;
    const slots = field === undefined ? [] : leafPatterns(leaf, this.options).map((pattern) => field.patterns.indexOf(pattern));
    return field === undefined || slots.length === 0 || slots.includes(-1) ? undefined : { field, slots, key: fieldKey(leaf) };
  }

  /** The request begun. */
  current(): TestRequest {
    return this.request;
  }

  /** Which rule of the set decides the request begun, as decide() does (evaluate.ts): only the rules that can decide are asked. */
  decision<R extends NormalRule>({ rules, treeOf, reachable }: ProgramSet<R>): Decision<R> {
    for (const position of reachable) {
      const verdict = this.tree(treeOf[position] as number);
      const rule = rules[position] as R;
      if (verdict === true) return { rule, index: position, actions: [...rule.actions] };
      if (verdict === 'undecided') return { rule: undefined, index: -1, actions: [], undecided: { rule, index: position } };
    }
    return { rule: undefined, index: -1, actions: [] };
  }

  /** The group's verdict for the request begun: as groupVerdict. */
  group(group: ProgramGroup): Verdict {
    return VERDICTS[this.groupCode(group)] as Verdict;
  }

  /** The leaf's verdict for the request begun: as leafVerdict. */
  leaf(id: number): Verdict {
    return VERDICTS[this.leafCode(id)] as Verdict;
  }

  /** The tree's verdict for the request begun: as conditionsVerdict, Kleene's three values. */
  tree(id: number): Verdict {
    if (this.treeStamps[id] !== this.generation) {
      this.treeVerdicts[id] = this.treeCode(this.trees[id] as ProgramTree);
      this.treeStamps[id] = this.generation;
    }
    return VERDICTS[this.treeVerdicts[id] as number] as Verdict;
  }

  /**
   * The tree's verdict for the request begun with the leaves `unknown` picks undecided (replay's
   * fields a log lacks, docs/replay.md): Kleene's logic, as for a `$re` out of time. The leaves
   * picked differ from call to call, so only the leaves' own verdicts are remembered.
   */
  treeWithout(id: number, unknown: (leaf: ProgramLeaf) => boolean): Verdict {
    const tree = this.trees[id] as ProgramTree;
    const leafCode = (leaf: number): number => (unknown(this.leaves[leaf] as ProgramLeaf) ? UNDECIDED : this.leafCode(leaf));
    return VERDICTS[kleene(tree.all, tree.groups, (group) => kleene(group.all, group.leaves, leafCode))] as Verdict;
  }

  private treeCode(tree: ProgramTree): number {
    let undecided = false;
    for (const group of tree.groups) {
      const code = this.groupCode(group);
      if (code === UNDECIDED) undecided = true;
      else if ((code === TRUE) !== tree.all) return code;
    }
    return undecided ? UNDECIDED : tree.all ? TRUE : FALSE;
  }

  private groupCode(group: ProgramGroup): number {
    let undecided = false;
    for (const leaf of group.leaves) {
      const code = this.leafCode(leaf);
      if (code === UNDECIDED) undecided = true;
      else if ((code === TRUE) !== group.all) return code;
    }
    return undecided ? UNDECIDED : group.all ? TRUE : FALSE;
  }

  private leafCode(id: number): number {
    if (this.leafStamps[id] === this.generation) return this.leafVerdicts[id] as number;
    const value = fieldOf(this.request, (this.leaves[id] as RuleProgram<NormalRule>['leaves'][number]).leaf);
    const budgeted = this.budgeted[id];
    const known = value === undefined || budgeted === undefined ? undefined : budgetedCode(budgeted, value);
    const code = value === undefined ? (this.absent[id] as number) : known ?? codeOf((this.tests[id] as PresentTest)(value));
    this.leafVerdicts[id] = code;
    this.leafStamps[id] = this.generation;
    return code;
  }
}

/** The patterns V8 runs under the time budget on one field, with their answers for recent values. */
interface BudgetedField {
  patterns: CompiledPattern[];
  answers: Map<string, (boolean | undefined)[]>;
  /** interruptions() when the answers were kept: any interruption since, and they are forgotten. */
  interruptions: number;
}

export interface BudgetedLeaf {
  field: BudgetedField;
  /** The leaf's patterns, by their place in the field's list. */
  slots: number[];
  /** The field's key (semantics/fields.ts). */
  key: string;
}

/** Values whose budgeted answers are remembered per field (a log's distinct user agents, say), before the memory is cleared. */
const REMEMBERED_VALUES = 4096;

/**
 * Leaves whose every `$re` pattern V8 runs under the budget: all the patterns on a field are
 * asked about a new value in one budgeted run (budgetedAnswers), not in one run per pattern.
 */
function budgetedLeaves(leaves: readonly Leaf[], options: EvaluationOptions): (BudgetedLeaf | undefined)[] {
  const fields = new Map<string, BudgetedField>();
  return leaves.map((leaf) => {
    const patterns = leafPatterns(leaf, options);
    if (patterns.length === 0 || patterns.some((pattern) => pattern.engine !== 'v8')) return undefined;
    let field = fields.get(fieldKey(leaf));
    if (field === undefined) fields.set(fieldKey(leaf), (field = { patterns: [], answers: new Map(), interruptions: interruptions() }));
    const known = field.patterns;
    return { field, key: fieldKey(leaf), slots: patterns.map((pattern) => (known.includes(pattern) ? known.indexOf(pattern) : known.push(pattern) - 1)) };
  });
}

/** Whether every pattern of the leaf answered "no" for the value, within the budget: the leaf is false. */
export function answersNo(leaf: BudgetedLeaf, value: string): boolean {
  return budgetedCode(leaf, value) === FALSE;
}

/** The leaf's code from its field's budgeted answers for the value; undefined when one of its patterns has none. */
function budgetedCode({ field, slots }: BudgetedLeaf, value: string): number | undefined {
  if (field.interruptions !== interruptions()) {
    field.answers.clear();
    field.interruptions = interruptions();
  }
  let answers = field.answers.get(value);
  if (answers === undefined || answers.length < field.patterns.length) {
    answers = budgetedAnswers(field.patterns, value);
    if (field.answers.size >= REMEMBERED_VALUES) field.answers.clear();
    field.answers.set(value, answers);
  }
  // As the leaf's test: any pattern that matches decides.
  let unknown = false;
  for (const slot of slots) {
    const answer = answers[slot];
    if (answer === true) return TRUE;
    if (answer === undefined) unknown = true;
  }
  return unknown ? undefined : FALSE;
}

/** As combine (evaluate.ts) on codes: `$and` of nothing true, `$or` of nothing false; an undecided item decides only when no other does. */
function kleene<T>(all: boolean, items: ArrayLike<T>, codeOfItem: (item: T) => number): number {
  let undecided = false;
  for (let i = 0; i < items.length; i++) {
    const code = codeOfItem(items[i] as T);
    if (code === UNDECIDED) undecided = true;
    else if ((code === TRUE) !== all) return code;
  }
  return undecided ? UNDECIDED : all ? TRUE : FALSE;
}

function codeOf(verdict: Verdict): number {
  return verdict === true ? TRUE : verdict === false ? FALSE : UNDECIDED;
}
