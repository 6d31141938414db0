// The transition check against brute force (issue "safe transitions", done-when): for random
// small plans, every intermediate state of the order botrules chooses is evaluated on every
// request of a finite domain (each field absent, one of the values the rules mention, or one
// none mentions). No window of the domain is missed, a plan that claims no window has none,
// every window's witness is real, and the chosen order reaches the declared rules.
import { describe, test } from '@jest/globals';
import fc from 'fast-check';
import { holdsAgainstBruteForce, smallPlans } from './transition-support.js';

describe('the transition check against brute force', () => {
  test('random plans of up to 6 rules: no window missed, none claimed falsely, witnesses real', () => {
    fc.assert(fc.property(smallPlans(6), (p) => holdsAgainstBruteForce(p, false)), { numRuns: 300 });
  });

  test('with --safe-order too', () => {
    fc.assert(fc.property(smallPlans(5), (p) => holdsAgainstBruteForce(p, true)), { numRuns: 150 });
  });
});
