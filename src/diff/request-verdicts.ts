// The evaluator's verdicts on the requests of one region search (regions.ts): the witness search
// asks whether a request matches each of hundreds of trees (model.ts), the search whether its
// request still fits one more tree that must not match, and the confirmation which rule of each
// list decides a witness (confirm.ts). The trees repeat a few distinct leaves (a host, a path
// prefix, a missing header) across thousands of rules, so each leaf's verdict (an atom, atoms.ts)
// is worked out once per request and the trees are combined from them, as conditionsVerdict
// combines the leaves' verdicts (docs/behaviour.md, "Exhaustive behaviour diff").
import { leafTest, MATCH_WHEN_ABSENT, type EvaluationOptions, type PresentTest, type Verdict } from '../evaluate/leaf.js';
import { fieldOf, type TestRequest } from '../evaluate/request.js';
import type { Atom, AtomTable, AtomTree } from './atoms.js';

const FALSE = 0;
const TRUE = 1;
const UNDECIDED = 2;
const VERDICTS: readonly Verdict[] = [false, true, 'undecided'];
const NOT_ASKED = Symbol('not asked');

export class RequestVerdicts {
  /** Per atom: the request its code is for (a slot holds one when its stamp is the current one). */
  private readonly stamps: Uint32Array;
  private readonly codes: Uint8Array;
  private readonly tests: (PresentTest | undefined)[];
  /**
   * Per atom: the value its code was worked out for (NOT_ASKED before the first). The witness
   * search builds a new request at every step from the few values remembered per field
   * (model.ts), so most leaves see the very value they saw last.
   */
  private readonly lastValues: (string | undefined | typeof NOT_ASKED)[];
  private stamp = 0;
  /**
   * The request the codes are for. Compared by identity: the search's requests are built whole
   * (model.ts) and never changed once a verdict is asked of them.
   */
  private request: TestRequest | undefined;

  constructor(
    private readonly table: AtomTable,
    private readonly options: EvaluationOptions,
  ) {
    const count = table.atoms.length;
    this.stamps = new Uint32Array(count);
    this.codes = new Uint8Array(count);
    this.tests = new Array<PresentTest | undefined>(count).fill(undefined);
    this.lastValues = new Array<string | undefined | typeof NOT_ASKED>(count).fill(NOT_ASKED);
  }

  /** conditionsVerdict(conditions, request) of the conditions `tree` was made of (atoms.ts atomTree). */
  verdict(tree: AtomTree, request: TestRequest): Verdict {
    if (request !== this.request) this.begin(request);
    return this.treeVerdict(tree);
  }

  /** leafVerdict(atom.leaf, request): a leaf with the atom's meaning has its verdict. */
  atomVerdict(atom: Atom, request: TestRequest): Verdict {
    if (request !== this.request) this.begin(request);
    return VERDICTS[this.leafCode(atom.id)] as Verdict;
  }

  private begin(request: TestRequest): void {
    this.request = request;
    this.stamp += 1;
    if (this.stamp < 0xffffffff) return;
    this.stamps.fill(0);
    this.stamp = 1;
  }

  /** As combine (evaluate.ts), as Assignment.treeTruth walks a tree: an undecided item decides only when no other does. */
  private treeVerdict(tree: AtomTree): Verdict {
    let undecided = false;
    for (const group of tree.groups) {
      const verdict = this.groupVerdict(group);
      if (verdict === 'undecided') undecided = true;
      else if (verdict !== tree.all) return verdict;
    }
    return undecided ? 'undecided' : tree.all;
  }

  private groupVerdict(group: AtomTree['groups'][number]): Verdict {
    let undecided = false;
    for (const atom of group.atoms) {
      const verdict = VERDICTS[this.leafCode(atom.id)] as Verdict;
      if (verdict === 'undecided') undecided = true;
      else if (verdict !== group.all) return verdict;
    }
    return undecided ? 'undecided' : group.all;
  }

  /** As leafVerdict of the atom's leaf: a leaf with its meaning has its verdict. */
  private leafCode(id: number): number {
    if (this.stamps[id] === this.stamp) return this.codes[id] as number;
    const leaf = (this.table.atoms[id] as AtomTable['atoms'][number]).leaf;
    const value = fieldOf(this.request as TestRequest, leaf);
    let code: number;
    // The value of the last request it was asked about: the same verdict (a leaf reads nothing else).
    if (value === this.lastValues[id]) code = this.codes[id] as number;
    else if (value === undefined) code = MATCH_WHEN_ABSENT.has(leaf.operator) ? TRUE : FALSE;
    else {
      let test = this.tests[id];
      if (test === undefined) this.tests[id] = test = leafTest(leaf, this.options);
      const verdict = test(value);
      code = verdict === true ? TRUE : verdict === false ? FALSE : UNDECIDED;
    }
    this.stamps[id] = this.stamp;
    this.codes[id] = code;
    this.lastValues[id] = value;
    return code;
  }
}
