// What users type in a rule file, as the schema (schemas/rules.schema.json) admits it:
// optional fields may be missing and a list operator's value may be a single string.
// `normalise.ts` turns it into the internal `Rule` of model.ts.
import type { Action, ConditionType, GroupOperator, LeafOperator, Status } from './model.js';

export interface WrittenLeaf {
  conditionType: ConditionType;
  operator: LeafOperator;
  /** A list or a single string for $in/$notIn/$re, a string for other value operators, absent for $exists/$notExists. */
  value?: string | string[];
  fieldOption?: string;
}

export interface WrittenGroup {
  operator: GroupOperator;
  children: WrittenLeaf[];
}

export interface WrittenConditions {
  operator: GroupOperator;
  children: WrittenGroup[];
}

export interface WrittenRule {
  name: string;
  ruleId?: string;
  description?: string;
  status?: Status;
  actions: Action[];
  conditions: WrittenConditions;
}

export interface WrittenRuleFile {
  rules: WrittenRule[];
}
