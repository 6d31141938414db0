export { decide, conditionsMatch, groupMatches, missedLeaves, type Decision, type MissedLeaf } from './evaluate.js';
export { leafMatches, inRanges, MATCH_WHEN_ABSENT, type EvaluationOptions } from './leaf.js';
export { fieldOf, type TestRequest } from './request.js';
export { describeField, describeLeaf } from './describe.js';
