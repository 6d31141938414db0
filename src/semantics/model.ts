// The rule model shared by every part of the tool. Written rules (what users type in YAML)
// are validated and normalised into `Rule`; live rules come from the API as `LiveRule`.
// The vocabularies come from the service's interface (docs/service-api.md, "Custom rule", "Condition tree").

export const ACTIONS = ['allow', 'blockWithChallenge', 'hardBlock'] as const;
export type Action = (typeof ACTIONS)[number];

export const STATUSES = ['active', 'paused'] as const;
export type Status = (typeof STATUSES)[number];

export const GROUP_OPERATORS = ['$or', '$and'] as const;
export type GroupOperator = (typeof GROUP_OPERATORS)[number];

export const LEAF_OPERATORS = [
  '$eq', '$contains', '$startsWith', '$endsWith', '$re', '$notEndsWith', '$ne',
  '$in', '$notIn', '$exists', '$notExists',
] as const;
export type LeafOperator = (typeof LEAF_OPERATORS)[number];

/** Operators whose value is a list of strings. */
export const LIST_OPERATORS: readonly LeafOperator[] = ['$in', '$notIn', '$re'];
/** Operators that take no value at all. */
export const PRESENCE_OPERATORS: readonly LeafOperator[] = ['$exists', '$notExists'];

export const CONDITION_TYPES = ['userAgent', 'domain', 'socketIps', 'socketIpASN', 'path', 'queryParam', 'header', 'httpMethod', 'deviceType', 'country', 'customParam'] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];

/** Condition types that test a named field, so they need `fieldOption`. */
export const FIELD_OPTION_TYPES: readonly ConditionType[] = ['queryParam', 'header', 'customParam'];

/**
 * What plan and apply do with a live rule no rule file declares (docs/behaviour.md, "Plan
 * semantics"): leave it, pause it, or refuse to plan.
 */
export type UnmanagedPolicy = 'keep' | 'pause' | 'fail' | 'delete';

/**
 * What the service accepts besides list and PATCH (docs/behaviour.md, "Creating and deleting
 * rules"): set in the config, both false unless it says otherwise.
 */
export interface ServiceCapabilities {
  create: boolean;
  delete: boolean;
}

/** A limit of deletes per apply (config `maxDeletes`): a count, or a share (0..1) of the app's live rules. */
export type MaxDeletes = { count: number } | { share: number };

export const NO_CAPABILITIES: ServiceCapabilities = Object.freeze({ create: false, delete: false });

export interface Leaf {
  conditionType: ConditionType;
  operator: LeafOperator;
  /** string[] for list operators, string for the other value operators, absent for presence operators. */
  value?: string | string[];
  fieldOption?: string;
}

export interface Group {
  operator: GroupOperator;
  children: Leaf[];
}

export interface Conditions {
  operator: GroupOperator;
  children: Group[];
}

/** A normalised rule: every optional field filled in, values in their canonical shape. */
export interface Rule {
  name: string;
  ruleId?: string;
  description: string;
  status: Status;
  actions: Action[];
  conditions: Conditions;
}

/**
 * The mark of a rule in normal form (docs/design.md, "One rule semantics"). It exists only for
 * the compiler: no value carries it at run time, and it is not exported, so nothing outside
 * this module can name it to forge one.
 */
declare const normalForm: unique symbol;

/**
 * A rule in normal form. Only the normalisers of src/semantics/normalise.ts make one, at each
 * boundary (rule file, server answer, live snapshot, plan file), so a function that takes a
 * NormalRule cannot be handed a rule whose defaults were never filled in. A copy made with
 * `{ ...rule }` keeps the mark, and so does one that changes a field to another value of its
 * type; a rule built field by field as an object literal does not have it.
 */
export type NormalRule = Rule & { readonly [normalForm]: true };

/** Where a declared rule was written, for messages that point at the file. */
export interface SourceLocation {
  file: string;
  line: number;
  col: number;
}

/** One end of a rule's lifetime: the instant, and where the file writes it. */
export interface LifetimeBound {
  time: number;
  at: SourceLocation;
}

/**
 * A declared rule's lifetime as its file writes it (lifetime.ts; docs/behaviour.md, "Rules with
 * a lifetime"): outside [activeFrom, expires) the rule is declared paused.
 */
export interface RuleLifetime {
  activeFrom?: LifetimeBound;
  expires?: LifetimeBound;
  /** The status the file writes, which holds inside the window. */
  status: Status;
}

/** A rule declared in a rule file, in declared order (index in the list = desired position). */
export interface DeclaredRule extends NormalRule {
  source: SourceLocation;
  /**
   * Set for `mode: shadow`: the rule is applied paused, and replay decides it as if active.
   * `at` is where the `mode` key is written; `since` the file's `shadowSince`, when given.
   */
  shadow?: { at: SourceLocation; since?: string };
  /**
   * Set when the file gives `activeFrom` or `expires` (lifetime.ts): `status` above is then the
   * status at the moment the rules were read, paused outside the window.
   */
  lifetime?: RuleLifetime;
  /**
   * Only in an undo plan: a rule the apply deleted, to be created again. It matches no live
   * rule, not even one that carries its name now (the apply may have given the name to another).
   */
  recreate?: true;
}

/** A rule as the service lists it (normalised the same way as declared rules). */
export interface LiveRule extends NormalRule {
  ruleId: string;
  priority: number;
}

/** Fields a PATCH body may carry (docs/service-api.md, "Update a rule"); `ruleId` is never sent. */
export interface PatchBody {
  name?: string;
  description?: string;
  status?: Status;
  actions?: Action[];
  conditions?: Conditions;
  priority?: number;
}

export function isListOperator(op: LeafOperator): boolean {
  return LIST_OPERATORS.includes(op);
}

export function isPresenceOperator(op: LeafOperator): boolean {
  return PRESENCE_OPERATORS.includes(op);
}
