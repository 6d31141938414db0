// A condition tree's verdict for a request, as conditionsVerdict (evaluate/evaluate.ts) gives
// it, with the tree's leaves compiled once (docs/design.md, "One rule engine"): the witness
// search (model.ts) asks the trees no request of a state may match about each request it
// builds, hundreds of thousands of times on a plan of 5,000 rules, and the reference evaluator
// looks up each leaf's compiled test and makes a closure per group on every call. Here each
// leaf's test (the evaluator's own, leafTest) and whether it holds for an absent field are
// looked up once per tree; the groups are then walked in the evaluator's order, stopping where
// it stops (Kleene's three-valued logic, as combine() does), so the verdicts are its verdicts.
// The region's witness is still confirmed by the reference evaluator itself (confirm.ts).
import { leafTest, MATCH_WHEN_ABSENT, type EvaluationOptions, type PresentTest, type Verdict } from '../evaluate/leaf.js';
import { fieldOf, type TestRequest } from '../evaluate/request.js';
import type { Conditions, Leaf } from '../semantics/model.js';

interface CompiledLeaf {
  leaf: Leaf;
  test: PresentTest;
  absent: boolean;
}

interface CompiledGroup {
  all: boolean;
  leaves: CompiledLeaf[];
}

interface CompiledTree {
  all: boolean;
  groups: CompiledGroup[];
}

/** Per evaluation options (values compared with or without case), per conditions object. */
const COMPILED = [new WeakMap<Conditions, CompiledTree>(), new WeakMap<Conditions, CompiledTree>()];

/** conditionsVerdict(conditions, request, options), from the tree compiled once. */
export function treeVerdict(conditions: Conditions, request: TestRequest, options: EvaluationOptions): Verdict {
  const cache = COMPILED[options.caseInsensitiveValues === true ? 1 : 0] as WeakMap<Conditions, CompiledTree>;
  let tree = cache.get(conditions);
  if (tree === undefined) cache.set(conditions, (tree = compileTree(conditions, options)));
  let undecided = false;
  for (const group of tree.groups) {
    const verdict = groupVerdict(group, request);
    if (verdict === 'undecided') undecided = true;
    else if (verdict !== tree.all) return verdict;
  }
  return undecided ? 'undecided' : tree.all;
}

function groupVerdict(group: CompiledGroup, request: TestRequest): Verdict {
  let undecided = false;
  for (const { leaf, test, absent } of group.leaves) {
    const value = fieldOf(request, leaf);
    const verdict = value === undefined ? absent : test(value);
    if (verdict === 'undecided') undecided = true;
    else if (verdict !== group.all) return verdict;
  }
  return undecided ? 'undecided' : group.all;
}

function compileTree(conditions: Conditions, options: EvaluationOptions): CompiledTree {
  return {
    all: conditions.operator === '$and',
    groups: conditions.children.map((group) => ({
      all: group.operator === '$and',
      leaves: group.children.map((leaf) => ({ leaf, test: leafTest(leaf, options), absent: MATCH_WHEN_ABSENT.has(leaf.operator) })),
    })),
  };
}
