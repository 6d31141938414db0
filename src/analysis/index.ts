export { analyseRules, CHECK_IDS, type CheckId, type Finding } from './checks.js';
export { silenced } from './silence.js';
