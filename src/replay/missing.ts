// Whether a request's outcome depends on a field its log line lacks (docs/replay.md, "Fields
// the log lacks"). Only the rules the change touches count: a rule that reads `country` under
// a change to a country condition cannot be judged on a log without countries. For each rule
// set, a touched rule at or before the deciding rule (or any, when no rule decides) whose match
// is unknown once the leaves on lacking fields are unknown (Kleene's logic, as for `$re`) makes
// the outcome unknown: the request is counted undecided, never "no change". The touched rules
// are compiled (docs/design.md, "One rule engine") and asked through the engine's view that
// makes chosen leaves unknown, so each leaf is decided once per request however many rules hold it.
import type { Decision } from '../evaluate/evaluate.js';
import type { TestRequest } from '../evaluate/request.js';
import { ProgramVerdicts } from '../evaluate/program-verdicts.js';
import type { NormalRule } from '../semantics/model.js';
import { requestField } from '../semantics/fields.js';
import { ProgramBuilder, type ProgramLeaf } from '../semantics/program.js';
import { carries, lackedFields, unusableForm, type Carriage, type RequestField, type TextField } from './coverage.js';

/** The fields a rule's leaves read. */
export function ruleFields(rule: NormalRule): Set<RequestField> {
  return new Set(rule.conditions.children.flatMap((group) => group.children.map(requestField)));
}

interface TouchedRule {
  index: number;
  rule: NormalRule;
  fields: Set<RequestField>;
  /** Its condition tree's id in the check's program, once compiled (-1 before). */
  tree: number;
}

/** A touched rule of one set, by its position there. */
interface RuleSetTouch {
  rules: readonly NormalRule[];
  touched: (rule: NormalRule) => boolean;
}

export class MissingFieldCheck {
  private readonly sets: TouchedRule[][];
  /** The touched rules compiled, when a request first lacks a field they read: a log that lacks none costs no compilation. */
  private verdicts: ProgramVerdicts | undefined;
  /** Every field some touched rule reads: a request lacking none of them is decided as read. */
  readonly fieldsRead: ReadonlySet<RequestField>;
  /** Per field, the touched rules that read it (names, each once). */
  readonly rulesReading: ReadonlyMap<RequestField, string[]>;

  constructor(sets: readonly RuleSetTouch[]) {
    this.sets = sets.map(({ rules, touched }) => rules.flatMap((rule, index) =>
      (rule.status === 'active' && touched(rule) ? [{ index, rule, fields: ruleFields(rule), tree: -1 }] : [])));
    const reading = new Map<RequestField, string[]>();
    for (const { rule, fields } of this.sets.flat()) {
      for (const field of fields) {
        const names = reading.get(field) ?? [];
        if (!names.includes(rule.name)) names.push(rule.name);
        reading.set(field, names);
      }
    }
    this.rulesReading = reading;
    this.fieldsRead = new Set(reading.keys());
  }

  /** Whether the request lacks a field some touched rule reads: only then can dependsOn be non-empty. */
  mayDependOn(request: TestRequest, carriage: Carriage): boolean {
    for (const field of this.fieldsRead) {
      if (lacks1(request, field, carriage)) return true;
    }
    return false;
  }

  /** The lacking fields the request's outcome depends on under any set (empty: decided as read). */
  dependsOn(request: TestRequest, carriage: Carriage, decisions: readonly Decision[]): RequestField[] {
    // The common case, a line carrying every field the touched rules read, allocates nothing.
    if (!this.mayDependOn(request, carriage)) return [];
    const lacked = lackedFields(request, carriage);
    const unknown = (leaf: ProgramLeaf): boolean => lacks(leaf, lacked, carriage);
    const verdicts = (this.verdicts ??= this.compile());
    verdicts.begin(request);
    const blamed = new Set<RequestField>();
    this.sets.forEach((touched, set) => {
      const decision = decisions[set];
      if (decision === undefined || decision.undecided !== undefined) return;
      for (const { index, fields, tree } of touched) {
        if (decision.index >= 0 && index > decision.index) break;
        if (![...fields].some((field) => lacked.has(field))) continue;
        if (verdicts.treeWithout(tree, unknown) === 'undecided') {
          for (const field of fields) if (lacked.has(field)) blamed.add(field);
        }
      }
    });
    return [...blamed];
  }

  private compile(): ProgramVerdicts {
    const program = new ProgramBuilder();
    for (const touched of this.sets.flat()) touched.tree = program.tree(touched.rule.conditions);
    return new ProgramVerdicts(program);
  }
}

/** Whether the request lacks one field: not carried, or carried in a form no rule matches. */
function lacks1(request: TestRequest, field: RequestField, carriage: Carriage): boolean {
  if (!carries(request, field, carriage)) return true;
  const value = field === 'headers' || field === 'query' || field === 'custom' ? undefined : request[field];
  return value !== undefined && unusableForm(field as TextField, value);
}

/** A header leaf on a header the format records (among only some) is decided; any other on a lacking field is not. */
function lacks({ field, name }: ProgramLeaf, lacked: ReadonlySet<RequestField>, carriage: Carriage): boolean {
  // The program keeps a header leaf's name lower-case (semantics/program.ts).
  if (field === 'headers' && carriage.partialHeaders !== undefined) return !carriage.partialHeaders.includes(name);
  return lacked.has(field);
}
