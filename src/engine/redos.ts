// The redos-pattern check of `validate` (src/analysis/redos.ts): each distinct pattern that
// can backtrack exponentially at all is given to the `recheck` ReDoS checker, once per run,
// with a time limit; only exponential verdicts are reported. The checker is loaded only when a
// rule has such a pattern, so most runs never pay for it; it is recheck's plain JavaScript
// checker, run in this process (the package's main entry starts a native binary or a worker
// from paths inside node_modules, which the bundled CLI does not have).
import { patternsToCheck, redosFinding, type ExponentialPattern, type Finding } from '../analysis/index.js';
import type { DeclaredRule } from '../semantics/model.js';

/** How long the checker may spend on one pattern; a pattern it cannot decide in time is not reported. */
const CHECK_TIMEOUT_MS = 3000;

/** The redos-pattern findings of one app's rules; `verdicts`: the checker's answers, shared between apps. */
export async function redosFindings(rules: readonly DeclaredRule[], verdicts: Map<string, ExponentialPattern | undefined>): Promise<Finding[]> {
  const patterns = patternsToCheck(rules);
  if (patterns.length === 0) return [];
  const loaded = await import('recheck/lib/browser.js');
  const checkSync = loaded.checkSync ?? loaded.default?.checkSync;
  if (checkSync === undefined) throw new Error('the recheck package has no checkSync');
  return patterns.flatMap((one) => {
    if (!verdicts.has(one.pattern)) {
      const diagnostics = checkSync(one.pattern, '', { timeout: CHECK_TIMEOUT_MS });
      verdicts.set(one.pattern, diagnostics.status === 'vulnerable' && diagnostics.complexity.type === 'exponential' ? { attack: diagnostics.attack.pattern } : undefined);
    }
    const exponential = verdicts.get(one.pattern);
    return exponential === undefined ? [] : [redosFinding(one, exponential)];
  });
}
