// The redos-pattern check of `validate` (src/validate/redos.ts): each distinct pattern that
// can backtrack exponentially at all is given to the `recheck` ReDoS checker, once per run,
// with a time limit per pattern and one budget for all patterns of the command; exponential
// verdicts are reported, and so is every pattern left without a verdict (the checker ran out of
// its time on it, or the budget ran out before it was asked): never passed over as safe. The
// checker is loaded only when a rule has such a pattern, so most runs never pay for it; it is
// recheck's plain JavaScript checker, run in this process (the package's main entry starts a
// native binary or a worker from paths inside node_modules, which the bundled CLI does not have).
import { patternsToCheck, redosFinding, redosUnchecked, type ExponentialPattern } from '../validate/redos.js';
import type { Finding } from '../validate/checks.js';
import type { DeclaredRule } from '../semantics/model.js';

/** How long the checker may spend on one pattern. */
const CHECK_TIMEOUT_MS = 3000;

/** How long the checker may spend on all patterns of one command, loading it included. */
export const REDOS_BUDGET_MS = 10_000;

/** The checker's answer on one pattern. */
type RedosVerdict = { exponential: ExponentialPattern } | { safe: true } | { undecided: string };

/** What the check shares between the apps of one command: the verdicts, and the deadline once the first pattern is asked. */
interface RedosRun {
  verdicts: Map<string, RedosVerdict>;
  deadline?: number;
}

export function redosRun(): RedosRun {
  return { verdicts: new Map() };
}

/** The redos-pattern findings of one app's rules. */
export async function redosFindings(rules: readonly DeclaredRule[], run: RedosRun): Promise<Finding[]> {
  const patterns = patternsToCheck(rules);
  if (patterns.length === 0) return [];
  run.deadline ??= Date.now() + REDOS_BUDGET_MS;
  const loaded = await import('recheck/lib/browser.js');
  const checkSync = loaded.checkSync ?? loaded.default?.checkSync;
  if (checkSync === undefined) throw new Error('the recheck package has no checkSync');
  const deadline = run.deadline;
  return patterns.flatMap((one) => {
    let verdict = run.verdicts.get(one.pattern);
    if (verdict === undefined) {
      const left = deadline - Date.now();
      if (left <= 0) return [redosUnchecked(one, `the check's budget of ${REDOS_BUDGET_MS / 1000} s for all patterns ran out first`)];
      const diagnostics = checkSync(one.pattern, '', { timeout: Math.min(CHECK_TIMEOUT_MS, left) });
      verdict = diagnostics.status === 'vulnerable'
        ? diagnostics.complexity.type === 'exponential' ? { exponential: { attack: diagnostics.attack.pattern } } : { safe: true }
        : diagnostics.status === 'safe' ? { safe: true } : { undecided: undecidedReason(diagnostics.error.kind) };
      run.verdicts.set(one.pattern, verdict);
    }
    if ('exponential' in verdict) return [redosFinding(one, verdict.exponential)];
    if ('undecided' in verdict) return [redosUnchecked(one, verdict.undecided)];
    return [];
  });
}

function undecidedReason(kind: string): string {
  if (kind === 'timeout' || kind === 'cancel') return 'the checker could not decide it in the time it had';
  if (kind === 'unsupported') return 'the checker does not support its syntax';
  return 'the checker gave no verdict on it';
}
