// What users type in a rule file lives in src/semantics/written.ts (docs/design.md, "One rule
// semantics"); this module keeps the old import path.
export * from '../semantics/written.js';
