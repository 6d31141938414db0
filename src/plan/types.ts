// The shapes a plan is made of. A plan is data: it can be printed, saved as JSON
// (docs/behaviour.md, "Plan format") and loaded back, and `apply` sends exactly the bodies
// it holds. Every step says what kind of change it is and carries each changed field with
// its value before and after, so a saved plan, an undo plan and a fresh plan render alike.
import type { Action, LiveRule, PatchBody, Rule, Status } from '../semantics/model.js';
import type { BlockedRule } from '../semantics/match.js';
import type { FieldChange } from '../semantics/changes.js';
import type { UnknownFieldDrop } from '../semantics/unknown.js';
import type { TrafficVerdict } from './traffic-limit.js';

export { RULE_FIELDS } from '../semantics/canonical.js';
export type { FieldChange } from '../semantics/changes.js';
export type { BlockedRule } from '../semantics/match.js';
export type { UnknownFieldDrop } from '../semantics/unknown.js';

/**
 * A change of position. `before` is the rule's 0-based index in the live list before the
 * plan runs, `after` its index once the whole plan has run (API priorities; the console
 * shows them plus one). The body's `priority` is the index to insert at when the step runs.
 */
interface PositionChange {
  field: 'priority';
  before: number;
  after: number;
}

export type Change = FieldChange | PositionChange;

interface StepCommon {
  ruleId: string;
  /** The rule's name once the step has run (the declared name; the live name for unmanaged rules). */
  name: string;
  /** Exactly what is sent; never holds `ruleId`. */
  body: PatchBody;
  /**
   * Fields botrules does not know that the step's `conditions` would remove from the live
   * rule (their leaf or group is replaced); absent when none. `apply` refuses such a step
   * without --force (docs/behaviour.md, "Unknown fields").
   */
  dropsUnknown?: UnknownFieldDrop[];
}

/** Changes fields of a managed rule where it stands. */
interface UpdateStep extends StepCommon {
  kind: 'update';
  changes: FieldChange[];
}

/** Moves a managed rule whose fields are already right. */
interface MoveStep extends StepCommon {
  kind: 'move';
  changes: [PositionChange];
}

/** Changes fields of a managed rule and moves it, in one PATCH. */
interface UpdateAndMoveStep extends StepCommon {
  kind: 'update-and-move';
  /** The field changes, then the position change last. */
  changes: Change[];
}

/** Pauses an active live rule that no rule file declares (policy `pause`). */
export interface PauseUnmanagedStep extends StepCommon {
  kind: 'pause-unmanaged';
  changes: [{ field: 'status'; before: 'active'; after: 'paused' }];
}

/**
 * Creates a declared rule no live rule matches (`service.create`): one POST whose body holds
 * the whole rule and `priority`, the index to insert it at when the step runs (list-insert:
 * the rule there and those below move down one). `ruleId` is a placeholder no live rule has
 * (see planner.ts, `placeholderIds`); the service gives the rule its id, which apply reports.
 */
export interface CreateStep extends StepCommon {
  kind: 'create';
  changes: [];
  /** The rule's 0-based index once the whole plan has run. */
  position: number;
}

/**
 * Deletes a live rule no rule file declares (`service.delete` with `unmanaged: delete`): one
 * DELETE; the rules below move up one. Nothing is sent in a body, so `body` is empty (and a
 * plan file leaves it out).
 */
export interface DeleteStep extends StepCommon {
  kind: 'delete';
  changes: [];
  body: Record<string, never>;
  /** The rule's 0-based index in the live list before the plan runs. */
  position: number;
}

/** One request (PATCH, POST or DELETE), in execution order. */
export type PlanStep = UpdateStep | MoveStep | UpdateAndMoveStep | PauseUnmanagedStep | CreateStep | DeleteStep;

/** A step that creates or deletes a rule rather than PATCHing one. */
export function isLifecycle(step: PlanStep): step is CreateStep | DeleteStep {
  return step.kind === 'create' || step.kind === 'delete';
}

/** A live rule that no rule file declares. */
export interface UnmanagedRule {
  ruleId: string;
  name: string;
  /** Its live status (absent in plans saved before it was recorded). */
  status?: Status;
  /**
   * True when the rules directory's git history shows the rule was declared once (by its
   * `ruleId` or name): a rule file was removed, and the service cannot delete the rule.
   * Absent when it never was, or when there is no history to tell (docs/behaviour.md, "Removed rules").
   */
  removedFromFiles?: boolean;
}

export interface AppPlan {
  app: string;
  /** `sha256:<hex>` of the live rules the plan was computed from (see fingerprint.ts). */
  fingerprint: string;
  /** How many live rules the app had when the plan was computed (the base of the change limit). */
  liveRules: number;
  steps: PlanStep[];
  blocked: BlockedRule[];
  unmanaged: UnmanagedRule[];
  /** Digest of every live rule (ruleId → `sha256:<hex>`), so a stale plan can name what changed. */
  liveDigests?: Record<string, string>;
  /**
   * Only in an undo plan: the rules as they were before the apply it undoes, in priority
   * order. `apply` runs an undo plan only when its steps are exactly the ones that take the
   * live rules back to these. In normal form: a plan file's are normalised when it is read.
   */
  restore?: LiveRule[];
  /**
   * With plan --replay (or apply --replay): what the plan does to the replayed requests, which
   * the traffic safety limit compares (traffic-limit.ts). A saved plan carries it to apply.
   */
  replay?: TrafficVerdict;
  /**
   * What the transition check found in the order of `steps` (src/diff/order/); present when the
   * check ran, and then `steps` are in the order it chose and apply sends them one at a time.
   */
  transitions?: TransitionCheck;
}

/**
 * A rule as a plan file records it (its fields, id and priority); reading the file makes it a
 * LiveRule again through the live rules' normaliser (plan-json.ts).
 */
export type RestoredRule = Rule & { ruleId: string; priority: number };

/** A move runs alone, in plan order: its body carries `priority`. */
export function isMove(step: PlanStep): step is MoveStep | UpdateAndMoveStep {
  return step.kind === 'move' || step.kind === 'update-and-move';
}

/** The position change of a move, if the step is one. */
export function positionChange(step: PlanStep): PositionChange | undefined {
  return (step.changes as readonly Change[]).find((change): change is PositionChange => change.field === 'priority');
}

/** The changed rule fields of a step (its position aside), in RULE_FIELDS order. */
export function fieldChanges(step: PlanStep): FieldChange[] {
  return (step.changes as readonly Change[]).filter((change): change is FieldChange => change.field !== 'priority');
}

/**
 * True when a step cannot change how any request is decided: it moves nothing and changes only
 * the name or the description. Such steps may overlap in any order without a state the check has
 * not seen (src/diff/order/); every other step of a checked order runs alone (src/apply/execute.ts).
 */
export function behaviourNeutral(step: PlanStep): boolean {
  return !isMove(step) && !isLifecycle(step) && fieldChanges(step).every((change) => change.field === 'name' || change.field === 'description');
}

/** A class of requests a window lets through, with one request of it (`Outcome`: words in a plan file). */
export interface WindowClass<Outcome = WindowOutcome> {
  /** The requests, in words (untrusted text: values come from rule files and live rules). */
  requests: string;
  /** The state the class was found in (after this many PATCHes), the first of the window it is in. */
  seenAfter: number;
  /** One request of the class, confirmed by the evaluator in that state (the fields of a test request, docs/evaluation.md). */
  witness: Record<string, unknown>;
  /** What decides the witness: before the plan, while the window is open, once the plan has run. */
  before: Outcome;
  during: Outcome;
  after: Outcome;
}

/** What decides a window's witness in one state: a rule and its actions, no rule, a rule undecided (and why), or a file's words. */
export type WindowOutcome =
  | { kind: 'rule'; rule: string; actions: readonly Action[] }
  | { kind: 'no-rule' }
  | { kind: 'undecided'; reason: string }
  | SavedWords;

/**
 * A run of intermediate states that let through requests which both the starting and the final
 * rules block or challenge, and those requests.
 */
export interface TransitionWindow<Outcome = WindowOutcome> {
  /** Open from the state after this many PATCHes (1-based)… */
  opensAfter: number;
  /** …until the PATCH with this number closes it. */
  closesAt: number;
  /** The classes of requests let through, each described once (where it first appears). */
  classes: WindowClass<Outcome>[];
}

/**
 * A reason as a saved plan file words it. The file carries words where botrules keeps data
 * (docs/behaviour.md, "Plan format"); read back, they are shown as they are, never parsed.
 */
export interface SavedWords {
  kind: 'saved';
  text: string;
}

/**
 * A part the transition check did not check, as data (src/render/plan/reasons.ts words it):
 * states or orders the time budget left out, orders not tried, the budget it had, a class of
 * requests whose outcome is undecided, or a part the region search could not decide (its
 * reason in the search's words, and the rules it concerns).
 */
export type UncheckedPart =
  | { kind: 'states-out-of-time'; first: number; last: number }
  | { kind: 'orders-out-of-time' }
  | { kind: 'orders-local'; moving: number; requests: number }
  | { kind: 'orders-near' }
  | { kind: 'budget'; seconds: number }
  | { kind: 'undecided-class'; requests: string; reasons: readonly string[] }
  | { kind: 'search'; reason: string; rules: readonly string[] }
  | SavedWords;

/** What the transition check found; a plan file words its reasons (`Outcome` and `Part` are strings there). */
export interface TransitionCheck<Outcome = WindowOutcome, Part = UncheckedPart> {
  /** Windows of the order the steps are in, by when they open. */
  windows: TransitionWindow<Outcome>[];
  /** What was not checked; empty when all was. */
  unchecked: Part[];
  /** How the order was chosen. */
  order: 'planner' | 'reordered' | 'split';
  /** Windows of the planner's own order, when another one was chosen because of them. */
  plannerWindows?: number;
  /**
   * When no order at the fewest PATCHes is free of windows but one with more PATCHes is:
   * how many more (`plan --safe-order` uses it).
   */
  saferOrderCost?: number;
}

/** `check` with each window outcome and each unchecked part put into another form (words, or a file's words read back). */
export function mapReasons<O, P, O2, P2>(check: TransitionCheck<O, P>, outcome: (from: O) => O2, part: (from: P) => P2): TransitionCheck<O2, P2> {
  const windows = check.windows.map((window) => ({
    ...window,
    classes: window.classes.map((open) => ({ ...open, before: outcome(open.before), during: outcome(open.during), after: outcome(open.after) })),
  }));
  return { ...check, windows, unchecked: check.unchecked.map(part) };
}
