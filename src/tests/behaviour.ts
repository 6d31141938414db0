// The behaviour diff of a plan (docs/evaluation.md, "Behaviour diff"): each test request is
// decided under the live rules and under the rules as they will be once the plan's steps
// have run, and every test whose deciding rule or actions differ is reported. A test whose
// outcome is undecided under either (a pattern out of its time budget) is left out of the
// report and said separately, naming the rule and the pattern. Pure: the caller passes the
// tests, each app's live rules and its steps. Both rule sets of an app are compiled together
// (docs/design.md, "One rule engine"): what they share is decided once per test request.
import type { EvaluationOptions } from '../evaluate/leaf.js';
import { ProgramVerdicts } from '../evaluate/program-verdicts.js';
import { undecidedPatterns } from '../evaluate/program-reasons.js';
import { compileProgram, type ProgramSet, type RuleProgram } from '../semantics/program.js';
import { inPriorityOrder } from '../plan/fingerprint.js';
import { simulateSteps } from '../semantics/list-move.js';
import type { PlanStep } from '../plan/types.js';
import type { BehaviourChange, BehaviourReport, Outcome } from '../diff/outcomes.js';
import type { LiveRule } from '../semantics/model.js';
import type { RuleTest } from './load.js';
import { appOf, undecidedRuleSentence } from './run.js';

interface AppBeforeAfter {
  app: string;
  live: readonly LiveRule[];
  steps: readonly PlanStep[];
}

interface TestBehaviourDiff {
  /** The tests decided both before and after, and those whose outcome the plan changes. */
  report: BehaviourReport;
  /** One sentence per test left out because its outcome is undecided, naming the test, the rule and the pattern. */
  undecided: string[];
}

/**
 * `tests` of every app of the project (`allApps` resolves a test without `app:`); only tests
 * of the planned `apps` are evaluated.
 */
export function behaviourReport(tests: readonly RuleTest[], allApps: readonly string[], apps: readonly AppBeforeAfter[], options: EvaluationOptions = {}): TestBehaviourDiff {
  let evaluated = 0;
  const changes: BehaviourChange[] = [];
  const undecided: string[] = [];
  for (const planned of apps) {
    const own = tests.filter((test) => appOf(test, allApps) === planned.app);
    if (own.length === 0) continue;
    const before = inPriorityOrder(planned.live);
    const after = planned.steps.length === 0 ? before : simulateSteps(planned.live, planned.steps);
    const program = compileProgram([before, after]);
    const verdicts = new ProgramVerdicts(program, options);
    const [live, declared] = program.sets as [ProgramSet<LiveRule>, ProgramSet<LiveRule>];
    for (const test of own) {
      verdicts.begin(test.request);
      const was = outcome(verdicts, program, live);
      const will = outcome(verdicts, program, declared);
      if (typeof was === 'string' || typeof will === 'string') {
        const { file, line, col } = test.source;
        const why = typeof was === 'string' ? `under the live rules, ${was}` : `under the rules as planned, ${will as string}`;
        undecided.push(`test ${JSON.stringify(test.name)} (${file}:${line}:${col}) is left out of the behaviour diff: ${why}`);
        continue;
      }
      evaluated += 1;
      if (!sameOutcome(was, will)) changes.push({ app: planned.app, test: test.name, source: test.source, before: was, after: will });
    }
  }
  return { report: { tests: evaluated, changes }, undecided };
}

/** The outcome under the set for the test request begun, or why it is undecided (the same verdicts name the patterns). */
function outcome(verdicts: ProgramVerdicts, program: RuleProgram<LiveRule>, set: ProgramSet<LiveRule>): Outcome | string {
  const decision = verdicts.decision(set);
  const undecided = decision.undecided;
  if (undecided !== undefined) return undecidedRuleSentence(undecided.rule, undecidedPatterns(verdicts, program, set, undecided.index));
  return { rule: decision.rule?.name, actions: decision.actions };
}

function sameOutcome(a: Outcome, b: Outcome): boolean {
  return a.rule === b.rule && a.actions.length === b.actions.length && a.actions.every((action, index) => action === b.actions[index]);
}
