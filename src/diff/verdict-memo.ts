// Which trees the witness search (model.ts) already knows do not match a request, without the
// evaluator (docs/behaviour.md, "Exhaustive behaviour diff"). A leaf every way of matching a
// tree needs (a required leaf) decides the tree when it is false, and its verdict depends on the
// value of its field alone. So when a tree fails a request because of such a leaf, the leaf and
// that value are remembered; a later request carrying the same value there fails the tree
// too, whatever its other fields. The search's requests differ in a field or two from one step
// to the next, while most trees a request passes the guard of (tree-guards.ts) fail it on a
// pattern or a substring of a field the step did not change.
import { conditionsVerdict } from '../evaluate/evaluate.js';
import { leafVerdict, type EvaluationOptions } from '../evaluate/leaf.js';
import { fieldOf, type TestRequest } from '../evaluate/request.js';
import type { Conditions, Group, Leaf } from '../semantics/model.js';

/** A required leaf found false, and the value (undefined: absent) its field had then. */
interface Failure {
  leaf: Leaf;
  value: string | undefined;
}

/** Worked out once per conditions object (the rule objects are shared by every search). */
const REQUIRED = new WeakMap<Conditions, readonly Leaf[]>();

/**
 * The leaves a tree cannot match without: of an `$and` of groups (or a lone group), each leaf of
 * an `$and` group and the only leaf of a group of one.
 */
export function requiredLeaves(conditions: Conditions): readonly Leaf[] {
  let leaves = REQUIRED.get(conditions);
  if (leaves === undefined) {
    const groups = conditions.operator === '$and' || conditions.children.length === 1 ? conditions.children : [];
    REQUIRED.set(conditions, (leaves = groups.flatMap(groupRequired)));
  }
  return leaves;
}

function groupRequired(group: Group): readonly Leaf[] {
  return group.operator === '$and' || group.children.length === 1 ? group.children : [];
}

export class VerdictMemo {
  private readonly failures = new Map<Conditions, Failure>();
  /** Evaluator runs and answers given from memory (tests count them). */
  evaluated = 0;
  remembered = 0;

  constructor(private readonly options: EvaluationOptions) {}

  /** Whether `conditions` may match `request`: false only when it does not (conditionsVerdict's false). */
  mayMatch(conditions: Conditions, request: TestRequest): boolean {
    const failure = this.failures.get(conditions);
    if (failure !== undefined && fieldOf(request, failure.leaf) === failure.value) {
      this.remembered += 1;
      return false;
    }
    this.evaluated += 1;
    if (conditionsVerdict(conditions, request, this.options) !== false) return true;
    // The first required leaf that fails it, if one does (the tree may fail on a group of an `$or` instead).
    for (const leaf of requiredLeaves(conditions)) {
      if (leafVerdict(leaf, request, this.options) === false) {
        this.failures.set(conditions, { leaf, value: fieldOf(request, leaf) });
        break;
      }
    }
    return false;
  }
}
