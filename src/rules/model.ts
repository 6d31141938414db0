// The rule model lives with what a rule means, in src/semantics/ (docs/design.md, "One rule
// semantics"); this module keeps the old import path.
export * from '../semantics/model.js';
