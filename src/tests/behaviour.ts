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
import type { LiveRule, SourceLocation } from '../semantics/model.js';
import type { RuleTest } from './load.js';
import { appOf, undecidedRule, type UndecidedRule } from './run.js';

interface AppBeforeAfter {
  app: string;
  live: readonly LiveRule[];
  steps: readonly PlanStep[];
}

interface TestBehaviourDiff {
  /** The tests decided both before and after, and those whose outcome the plan changes. */
  report: BehaviourReport;
  /** The tests left out because their outcome is undecided. */
  undecided: UndecidedTest[];
}

/** A test the behaviour diff leaves out: its outcome is undecided under the live rules or the rules as planned. */
export interface UndecidedTest {
  test: string;
  source: SourceLocation;
  under: 'live' | 'planned';
  undecided: UndecidedRule;
}

/**
 * `tests` of every app of the project (`allApps` resolves a test without `app:`); only tests
 * of the planned `apps` are evaluated.
 */
export function behaviourReport(tests: readonly RuleTest[], allApps: readonly string[], apps: readonly AppBeforeAfter[], options: EvaluationOptions = {}): TestBehaviourDiff {
  let evaluated = 0;
  const changes: BehaviourChange[] = [];
  const undecided: UndecidedTest[] = [];
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
      if ('patterns' in was) {
        undecided.push({ test: test.name, source: test.source, under: 'live', undecided: was });
        continue;
      }
      if ('patterns' in will) {
        undecided.push({ test: test.name, source: test.source, under: 'planned', undecided: will });
        continue;
      }
      evaluated += 1;
      if (!sameOutcome(was, will)) changes.push({ app: planned.app, test: test.name, source: test.source, before: was, after: will });
    }
  }
  return { report: { tests: evaluated, changes }, undecided };
}

/** The outcome under the set for the test request begun, or the rule whose match is undecided (the same verdicts name the patterns). */
function outcome(verdicts: ProgramVerdicts, program: RuleProgram<LiveRule>, set: ProgramSet<LiveRule>): Outcome | UndecidedRule {
  const decision = verdicts.decision(set);
  const undecided = decision.undecided;
  if (undecided !== undefined) return undecidedRule(undecided.rule, undecidedPatterns(verdicts, program, set, undecided.index));
  return { rule: decision.rule?.name, actions: decision.actions };
}

function sameOutcome(a: Outcome, b: Outcome): boolean {
  return a.rule === b.rule && a.actions.length === b.actions.length && a.actions.every((action, index) => action === b.actions[index]);
}
