// The list-move simulation lives with the rest of what a rule means (src/semantics/list-move.ts).
export { simulateSteps } from '../semantics/list-move.js';
