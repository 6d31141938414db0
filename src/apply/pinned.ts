// Pinned rules live with the rest of what a rule means (src/semantics/pinned.ts).
export { pinnedDeclared } from '../semantics/pinned.js';
