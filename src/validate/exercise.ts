// The smallest change to a test request that would exercise what the tests leave uncovered
// (docs/evaluation.md, "Coverage"): a rule no test decides, a leaf never seen true or false.
// Candidates come from the rules' own values (witness.ts); each is kept only when the compiled
// rule engine (docs/design.md, "One rule engine") confirms it does what is said, so a suggestion
// is never a guess. None found: nothing is said.
import { fieldOf, type TestRequest } from '../evaluate/request.js';
import type { EvaluationOptions } from '../evaluate/leaf.js';
import { ProgramVerdicts } from '../evaluate/program-verdicts.js';
import type { Leaf, NormalRule } from '../semantics/model.js';
import { fieldName, leafValues, requestField, sameFieldName } from '../semantics/fields.js';
import { ProgramBuilder, type ProgramSet } from '../semantics/program.js';
import { BASE, candidates } from './witness.js';

/** A test request, by name, and the request itself. */
interface NamedRequest {
  name: string;
  request: TestRequest;
}

/** Reaching tests tried for one suggestion: enough for a real suite, bounded for a huge one. */
const MAX_TESTS = 16;

type RecordKey = 'headers' | 'query' | 'custom';
const RECORDS: readonly RecordKey[] = ['headers', 'query', 'custom'];

/** Suggestions for one app's rules (priority order) and test requests, the rules compiled once for all of them. */
export class Exercise {
  private readonly program = new ProgramBuilder();
  private readonly set: ProgramSet<NormalRule>;
  private readonly verdicts: ProgramVerdicts;
  /** Each test's deciding position (-1: none or undecided), worked out when first asked. */
  private decidedAt: number[] | undefined;

  constructor(private readonly rules: readonly NormalRule[], private readonly tests: readonly NamedRequest[], evaluation: EvaluationOptions = {}) {
    this.set = this.program.set(rules);
    this.verdicts = new ProgramVerdicts(this.program, evaluation);
  }

  /**
   * A request (a test's, changed as little as the candidates allow, or a new one) that rule
   * `index` decides: each candidate put over each reaching test, then each changed field given
   * back its old value while the rule still decides; the fewest changes win, the first on a tie.
   */
  changeToDecide(index: number): string | undefined {
    const rule = this.rules[index];
    if (rule === undefined || rule.status !== 'active') return undefined;
    const options = candidates(rule.conditions);
    const tree = this.set.treeOf[index] as number;
    // The rule's own conditions first: cheap, and most requests that fail fail there.
    const decides = (request: TestRequest) => {
      this.verdicts.begin(request);
      return this.verdicts.tree(tree) === true && this.verdicts.decision(this.set).index === index;
    };
    let best: { text: string; size: number } | undefined;
    for (const test of this.reachingTests(index)) {
      for (const candidate of options) {
        let changes = changedFields(test.request, candidate);
        if (!decides(overlay(test.request, candidate))) continue;
        for (const change of [...changes]) {
          const fewer = changes.filter((other) => other !== change);
          if (decides(overlay(test.request, pick(candidate, fewer)))) changes = fewer;
        }
        if (best !== undefined && changes.length >= best.size) continue;
        best = { text: changes.length === 0 ? `test ${JSON.stringify(test.name)}` : `test ${JSON.stringify(test.name)} with ${changes.map((change) => change.text).join(', ')}`, size: changes.length };
      }
    }
    if (best !== undefined) return best.text;
    const fresh = options.map((candidate) => ({ ...BASE, ...candidate })).find(decides);
    return fresh === undefined ? undefined : `a request with ${changedFields({}, fresh).map((change) => change.text).join(', ')}`;
  }

  /** A test request that reaches rule `index` changed so that leaf (group, leaf) reads `wanted`. */
  changeToFlip(index: number, at: { group: number; leaf: number }, wanted: boolean): string | undefined {
    const leaf = this.rules[index]?.conditions.children[at.group]?.children[at.leaf];
    if (leaf === undefined) return undefined;
    // The per-value view: a leaf of a paused rule, which the set's trees do not hold, is asked too.
    const id = this.program.leaf(leaf);
    const values = wanted ? trueValues(leaf) : falseValues(leaf);
    for (const test of this.reachingTests(index)) {
      for (const value of values) {
        const changed = withField(test.request, leaf, value);
        if (this.verdicts.value(id, fieldOf(changed, leaf)) !== wanted || !reaches(index, this.decidedIndex(changed))) continue;
        return `test ${JSON.stringify(test.name)} ${value === undefined ? `without ${fieldWords(leaf)}` : `with ${fieldWords(leaf)} ${JSON.stringify(value)}`}`;
      }
    }
    return undefined;
  }

  private reachingTests(index: number): NamedRequest[] {
    this.decidedAt ??= this.tests.map((test) => this.decidedIndex(test.request));
    const decidedAt = this.decidedAt;
    return this.tests.filter((_, t) => reaches(index, decidedAt[t] as number)).slice(0, MAX_TESTS);
  }

  private decidedIndex(request: TestRequest): number {
    this.verdicts.begin(request);
    return this.verdicts.decision(this.set).index;
  }

}

/** No active rule before `index` matches a request that the rule at `decidedAt` decides (-1: none). */
function reaches(index: number, decidedAt: number): boolean {
  return decidedAt === -1 || decidedAt >= index;
}

function listOf(leaf: Leaf): string[] {
  const list = leafValues(leaf);
  return list.slice(0, 4).map((value) => (leaf.conditionType === 'socketIps' ? (value.split('/')[0] ?? value) : value));
}

/** Values of the leaf's field that may make it true (undefined: the field left out). */
function trueValues(leaf: Leaf): (string | undefined)[] {
  switch (leaf.operator) {
    case '$exists': return [leaf.conditionType === 'path' ? '/' : 'x'];
    case '$notExists': case '$ne': case '$notIn': case '$notEndsWith': return [undefined];
    default: return listOf(leaf);
  }
}

/** Values that may make it false. */
function falseValues(leaf: Leaf): (string | undefined)[] {
  switch (leaf.operator) {
    case '$notExists': return ['x'];
    case '$ne': case '$notIn': case '$notEndsWith': return listOf(leaf);
    default: return [undefined];
  }
}

function fieldWords(leaf: Leaf): string {
  const key = requestField(leaf);
  const name = key === 'headers' ? 'header' : key === 'query' ? 'query parameter' : key === 'custom' ? 'custom parameter' : key;
  return leaf.fieldOption === undefined ? name : `${name} ${JSON.stringify(leaf.fieldOption)}`;
}

/** The request with the leaf's field set to `value`, or left out (a header under any spelling of its name). */
function withField(request: TestRequest, leaf: Leaf, value: string | undefined): TestRequest {
  const key = requestField(leaf);
  const out: TestRequest = { ...request };
  if (key === 'headers' || key === 'query' || key === 'custom') {
    const name = fieldName(leaf);
    const same = (other: string) => sameFieldName(leaf, other);
    const record = Object.fromEntries(Object.entries(request[key] ?? {}).filter(([other]) => !same(other)));
    out[key] = value === undefined ? record : { ...record, [name]: value };
    return out;
  }
  if (value === undefined) delete out[key];
  else out[key] = value;
  return out;
}

/** The test's request with the candidate's fields put over it. */
function overlay(request: TestRequest, candidate: TestRequest): TestRequest {
  const out: TestRequest = { ...request, ...candidate };
  for (const key of RECORDS) if (request[key] !== undefined || candidate[key] !== undefined) out[key] = { ...request[key], ...candidate[key] };
  return out;
}

/** A field of a candidate: a request field, or a name in headers, query or custom. */
interface FieldChange {
  key: keyof TestRequest;
  name?: string;
  text: string;
}

/** The candidate's fields that the request does not already carry with that value. */
function changedFields(request: TestRequest, candidate: TestRequest): FieldChange[] {
  const out: FieldChange[] = [];
  for (const [key, value] of Object.entries(candidate) as [keyof TestRequest, TestRequest[keyof TestRequest]][]) {
    if (typeof value === 'string') {
      if (request[key] !== value) out.push({ key, text: `${key} ${JSON.stringify(value)}` });
      continue;
    }
    const before = (request[key] ?? {}) as Record<string, string>;
    const word = key === 'headers' ? 'header' : key === 'query' ? 'query parameter' : 'custom parameter';
    for (const [name, text] of Object.entries(value ?? {})) if (before[name] !== text) out.push({ key, name, text: `${word} ${JSON.stringify(name)}: ${JSON.stringify(text)}` });
  }
  return out;
}

/** Only the given fields of the candidate. */
function pick(candidate: TestRequest, changes: readonly FieldChange[]): TestRequest {
  const out: TestRequest = {};
  for (const change of changes) {
    if (change.name === undefined) {
      (out as Record<string, unknown>)[change.key] = candidate[change.key];
      continue;
    }
    const key = change.key as RecordKey;
    out[key] = { ...out[key], [change.name]: (candidate[key] as Record<string, string>)[change.name] as string };
  }
  return out;
}
