// The indexed analysis against the pairwise reference on one realistic rule set in the quick
// suite (the generated property test is in fast-path.property.test.ts).
import { analyseRules } from '../../src/validate/checks.js';
import { generateRules } from '../../src/emulator/generate-rules.js';
import { seededRandom } from '../../src/emulator/random.js';
import { analyseRulesPairwise } from './pairwise-reference.js';
import { declared } from '../helpers/rules.js';

describe('the indexed analysis', () => {
  it('reports exactly what the pairwise analysis reports on 300 generated rules', () => {
    const rules = generateRules(seededRandom(300), 300).map((rule, i) => declared({ ...rule, source: { file: `rules/${i}.yaml`, line: 3, col: 5 } }));
    const findings = analyseRules(rules);
    expect(findings).toEqual(analyseRulesPairwise(rules));
    // Each check but catch-all and unsatisfiable-group (which the generator never writes) finds something.
    expect(new Set(findings.map((f) => f.check))).toEqual(new Set(['shadowed-rule', 'duplicate-conditions', 'allow-before-block']));
  });
});
