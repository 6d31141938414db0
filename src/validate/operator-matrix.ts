// The one table of which operators the service's documentation lists for each conditionType:
// the "Custom rule operators and conditions" page of the service's API reference
// (docs.humansecurity.com, applications reference: custom-rule-operators-and-conditions; see
// docs/behaviour.md, "Built-in policies"). The page says a rule that uses another operator "won't
// properly update"; two renderings of it disagree for `domain`, and this table holds the
// union of both, so that the built-in policy `operator-matrix` reports only what neither
// rendering lists. A conditionType whose list botrules has not read from the page has no row:
// its leaves are not checked (never guessed), and the policy says so in an info line naming
// those types (operatorMatrixCoverage), so that no finding is never read as a pass. The rules
// schema (which follows the API) stays what makes a rule valid; this table is advice, reported
// at the policy's level.
import type { ConditionType, LeafOperator } from '../semantics/model.js';

export const OPERATOR_MATRIX: Readonly<Partial<Record<ConditionType, readonly LeafOperator[]>>> = {
  userAgent: ['$eq', '$contains', '$startsWith', '$endsWith', '$re'],
  domain: ['$endsWith', '$notEndsWith', '$eq', '$ne', '$re'],
};

/** Where the table comes from, named in every finding of the policy. */
export const OPERATOR_MATRIX_SOURCE = 'the service\'s "Custom rule operators and conditions" page';
