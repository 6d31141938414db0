export { decide, conditionsVerdict, groupVerdict, undecidedPatterns, type Decision, type UndecidedPattern } from './evaluate.js';
export { leafVerdict, inRanges, MATCH_WHEN_ABSENT, type EvaluationOptions, type Verdict } from './leaf.js';
export { MATCH_BUDGET_MS, compilePattern } from './pattern.js';
export { fieldOf, requestWith, type TestRequest } from './request.js';
export { describeField, describeLeaf } from './describe.js';
