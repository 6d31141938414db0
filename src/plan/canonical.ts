// The canonical form lives with the rest of what a rule means (src/semantics/canonical.ts).
export {
  canonicalConditions, canonicalJson, canonicalLeaf, canonicalRule, changedFields, identicalInOrder, leafKey, sameRule,
  RULE_FIELDS, type CanonicalRule, type RuleField,
} from '../semantics/canonical.js';
