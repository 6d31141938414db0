// The leaves and condition trees of the rule sets a replay compares, each kept once however
// many rules and sets hold it, with its verdict for the request being decided remembered until
// the next request. A themed rule set repeats the same leaves (`path $startsWith /account`,
// `userAgent $re …`) across hundreds of rules, and "before" and "after" differ in a few rules:
// each distinct leaf and tree is evaluated at most once per request, by the reference
// evaluator's own compiled leaf test (src/evaluate/leaf.ts), so the verdicts are its verdicts.
import { fieldOf, leafTest, MATCH_WHEN_ABSENT, type PresentTest, type TestRequest, type Verdict } from '../../evaluate/index.js';
import type { Conditions, Leaf } from '../../semantics/model.js';
import { fieldName, leafValues } from '../../semantics/fields.js';

/** A verdict as a small number, so the per-request cache is a byte array. */
const FALSE = 0;
const TRUE = 1;
const UNDECIDED = 2;
const VERDICTS: readonly Verdict[] = [false, true, 'undecided'];

/** A group as leaf ids, and a tree as groups: what is left of a condition tree once compiled. */
interface CompiledGroup {
  all: boolean;
  leaves: Int32Array;
}
interface CompiledTree {
  all: boolean;
  groups: CompiledGroup[];
}

export class SharedVerdicts {
  private readonly leafIds = new Map<string, number>();
  private readonly leaves: Leaf[] = [];
  private readonly tests: PresentTest[] = [];
  /** Each leaf's verdict when the request does not carry its field. */
  private readonly absent: number[] = [];
  private readonly treeIds = new Map<string, number>();
  private readonly trees: CompiledTree[] = [];
  // Per request: a slot holds a verdict when its stamp is the current generation.
  private leafStamps = new Uint32Array(0);
  private leafVerdicts = new Uint8Array(0);
  private treeStamps = new Uint32Array(0);
  private treeVerdicts = new Uint8Array(0);
  private generation = 0;
  private request: TestRequest = {};

  /** The id of a condition tree, the same for every tree with the same groups and leaves. */
  treeOf(conditions: Conditions): number {
    const key = JSON.stringify([conditions.operator, conditions.children.map((group) => [group.operator, group.children.map(leafKey)])]);
    let id = this.treeIds.get(key);
    if (id === undefined) {
      id = this.trees.length;
      this.treeIds.set(key, id);
      this.trees.push({
        all: conditions.operator === '$and',
        groups: conditions.children.map((group) => ({ all: group.operator === '$and', leaves: Int32Array.from(group.children, (leaf) => this.leafOf(leaf)) })),
      });
    }
    return id;
  }

  /** Every verdict remembered so far is forgotten: the next questions are about `request`. */
  begin(request: TestRequest): void {
    if (this.leafStamps.length < this.leaves.length) this.leafStamps = new Uint32Array(this.leaves.length);
    if (this.leafVerdicts.length < this.leaves.length) this.leafVerdicts = new Uint8Array(this.leaves.length);
    if (this.treeStamps.length < this.trees.length) this.treeStamps = new Uint32Array(this.trees.length);
    if (this.treeVerdicts.length < this.trees.length) this.treeVerdicts = new Uint8Array(this.trees.length);
    // Stamps wrap after 2^32 - 1 requests: then every slot is cleared once.
    this.generation = this.generation === 0xffffffff ? 1 : this.generation + 1;
    if (this.generation === 1) {
      this.leafStamps.fill(0);
      this.treeStamps.fill(0);
    }
    this.request = request;
  }

  /** The request begun. */
  current(): TestRequest {
    return this.request;
  }

  /** The tree's verdict for the request begun: as conditionsVerdict, Kleene's three values. */
  tree(id: number): Verdict {
    if (this.treeStamps[id] !== this.generation) {
      this.treeVerdicts[id] = this.treeCode(this.trees[id] as CompiledTree);
      this.treeStamps[id] = this.generation;
    }
    return VERDICTS[this.treeVerdicts[id] as number] as Verdict;
  }

  private treeCode(tree: CompiledTree): number {
    let undecided = false;
    for (const group of tree.groups) {
      const code = this.groupCode(group);
      if (code === UNDECIDED) undecided = true;
      else if ((code === TRUE) !== tree.all) return code;
    }
    return undecided ? UNDECIDED : tree.all ? TRUE : FALSE;
  }

  private groupCode(group: CompiledGroup): number {
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
    const value = fieldOf(this.request, this.leaves[id] as Leaf);
    const code = value === undefined ? (this.absent[id] as number) : codeOf((this.tests[id] as PresentTest)(value));
    this.leafVerdicts[id] = code;
    this.leafStamps[id] = this.generation;
    return code;
  }

  private leafOf(leaf: Leaf): number {
    const key = leafKey(leaf);
    let id = this.leafIds.get(key);
    if (id === undefined) {
      id = this.leaves.length;
      this.leafIds.set(key, id);
      this.leaves.push(leaf);
      this.tests.push(leafTest(leaf));
      this.absent.push(MATCH_WHEN_ABSENT.has(leaf.operator) ? TRUE : FALSE);
    }
    return id;
  }
}

/** Everything the evaluator reads of a leaf (request.ts, leaf.ts): equal keys, equal verdicts. */
function leafKey(leaf: Leaf): string {
  return JSON.stringify([leaf.conditionType, fieldName(leaf), leaf.operator, leafValues(leaf)]);
}

function codeOf(verdict: Verdict): number {
  return verdict === true ? TRUE : verdict === false ? FALSE : UNDECIDED;
}
