export { analyseRules, CHECK_IDS, type CheckId, type Finding } from './checks.js';
export { CHECK_DESCRIPTIONS } from './descriptions.js';
export { silenced } from './silence.js';
export { patternsToCheck, redosFinding, redosUnchecked, type ExponentialPattern, type PatternOfRule } from './redos.js';
