// The JSON Patch oracle of import --update over hundreds of random files and console edits
// (update-patch-oracle.ts says what it checks).
import { checkOracle } from './update-patch-oracle.js';

describe('import --update as JSON Patch (slow tier)', () => {
  it('writes what applyPatch of its operations gives, in each file\'s own line endings, and plans clean', () => {
    checkOracle(500);
  });
});
