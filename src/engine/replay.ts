// `replay`: request logs decided under the live rules (listed now, or a snapshot) and under
// the rules as they will be once the plan has run, the same "before" and "after" as the plan's
// behaviour diff (docs/replay.md). Logs are streamed: memory does not grow with their length.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UserError } from '../errors.js';
import { fingerprintRules, inPriorityOrder } from '../plan/fingerprint.js';
import { simulateSteps } from '../semantics/list-move.js';
import { matchRules } from '../semantics/match.js';
import type { DeclaredRule, LiveRule, NormalRule } from '../semantics/model.js';
import { MissingFieldCheck } from '../replay/missing.js';
import { AgreementTally } from '../replay/agreement.js';
import { compareWithBaseline, readBaseline } from '../replay/baseline.js';
import type { ProjectSelection, Runtime } from '../runtime.js';
import { compileRuleSets, type CompiledRuleSets, type UndecidedExplainer } from '../replay/compiled.js';
import type { LogFormat } from '../replay/formats.js';
import { logFiles, readLog, type LogReading, type TrafficReadOptions } from '../replay/read.js';
import { ReplayTally, type ReplayReport } from '../replay/tally.js';
import type { ConnectApp } from './list-apps.js';
import { planApps, type PlannedApp } from './plan-apps.js';
import { decideWithDuckDb } from './replay-duckdb.js';
import { accountDecided, accountEmpty, type ReadRequest, type Tallies } from '../replay/account.js';
import { loadProject, type Project } from './project.js';
import { definedFields } from '../defined.js';

export const REPLAY_ENGINES = ['js', 'duckdb'] as const;
export type ReplayEngine = (typeof REPLAY_ENGINES)[number];

export interface ReplayRequest extends ProjectSelection {
  /** Log files and directories, as the user named them. */
  logs: string[];
  /** A live snapshot (botrules live --out) for "before" instead of listing: no token, no request. */
  liveFile?: string;
  /** One format for every log; else told per file. */
  logFormat?: LogFormat;
  /** An earlier `replay --format json` report to compare with (read before any request). */
  baseline?: string;
  /** Where the requests are decided (docs/replay.md, "Engines"); js when not given. */
  engine?: ReplayEngine;
  /** Called as the logs are read, for a progress line (at most a few times a second is the caller's business). */
  onProgress?: (progress: ReplayProgress) => void;
}

/** How far a replay is: bytes of the log files read (compressed bytes for gzip) and requests decided. */
export interface ReplayProgress {
  bytesRead: number;
  bytesTotal: number;
  lines: number;
}

export async function replayProject(request: ReplayRequest, ctx: Runtime): Promise<ReplayReport> {
  const files = await replayedFiles(request.logs, ctx.cwd);
  const baseline = request.baseline === undefined ? undefined : await readBaseline(request.baseline, ctx.cwd);
  const project = await loadProject(request, ctx.cwd);
  const settings = checkOneApp(project, 'botrules replay --app NAME LOG…');
  const connect = request.liveFile === undefined ? undefined : (await liveSnapshotSource(request.liveFile, ctx.cwd)).source;
  const planned = await planApps(project, request, ctx, connect);
  const report = await replayPlanned(onlyApp(planned, 'botrules replay --app NAME LOG…'), files, {
    ...settings, ...definedFields({ liveFile: request.liveFile, format: request.logFormat, onProgress: request.onProgress, engine: request.engine }),
  }, ctx);
  if (baseline !== undefined) report.baseline = compareWithBaseline(report, baseline);
  return report;
}

/** The log files named, checked before any request is sent; none is an error. */
export async function replayedFiles(logs: readonly string[], cwd: string): Promise<string[]> {
  const files = await logFiles(logs, cwd);
  if (files.length === 0) throw new UserError('the logs named hold no files to replay');
  return files;
}

/** Before any request: the selection names one app, or an error asks to name it. */
export function checkOneApp(config: Project, usage: string): LogReading & { maxDisagreement?: number } {
  onlyApp(config.apps, usage);
  const { replayFields: fields, replaySecretNames: secretNames, replayIpField: ipField, replayMaxDisagreement: maxDisagreement, replayDecision: decision } = config;
  return definedFields({ fields, secretNames, ipField, maxDisagreement, decision });
}

/** A log belongs to one app: the one planned app, or an error asking to name it. */
export function onlyApp<A>(planned: readonly A[], usage: string): A {
  if (planned.length !== 1) {
    throw new UserError(`a log is replayed under one app's rules, and ${planned.length} apps are selected`, [
      `Name the app the log belongs to: ${usage}`,
    ]);
  }
  return planned[0] as A;
}

/** The logs decided under the app's live rules and under them with the plan's steps run. */
export async function replayPlanned(
  planned: Pick<PlannedApp, 'app' | 'live' | 'plan'> & { declared?: readonly DeclaredRule[] },
  files: readonly string[],
  request: Pick<ReplayRequest, 'liveFile' | 'onProgress' | 'engine'> & LogReading,
  ctx: Runtime,
): Promise<ReplayReport> {
  const { app, live, plan } = planned;
  const { liveFile, format, fields, secretNames, ipField, decision } = request;
  // Only the reading options: a caller's request may hold other options named alike (an output --format).
  const reading: TrafficReadOptions = { cwd: ctx.cwd, ...definedFields({ format, fields, secretNames, ipField, decision }) };
  const afterRules = plan.steps.length === 0 ? inPriorityOrder(live) : simulateSteps(live, plan.steps);
  const shadow = shadowRules(planned.declared ?? [], afterRules);
  // Shadow rules (applied paused) decided as if active, compared with the declared rules.
  const asIfActive = shadow.length === 0 ? [] : [afterRules.map((rule) => (shadow.includes(rule) ? { ...rule, status: 'active' as const } : rule))];
  const sets = [inPriorityOrder(live), afterRules, ...asIfActive];
  const touched = touchedRules(live, afterRules, plan.steps);
  // The js engine's compiled sets, made when first needed: they decide (js engine) and name the
  // patterns that left a rule undecided in the tallies (either engine).
  let compiled: CompiledRuleSets<LiveRule> | undefined;
  const js = () => (compiled ??= compileRuleSets<LiveRule>(sets));
  const explain: UndecidedExplainer = (undecided, request) => js().undecidedPatterns(undecided, request);
  const tallies: Tallies = {
    main: new ReplayTally(explain),
    shadow: new ReplayTally(explain),
    missing: new MissingFieldCheck([inPriorityOrder(live), afterRules].map((rules) => ({ rules, touched }))),
    // Production's decisions are compared with every live rule: any of them may have decided.
    liveMissing: new MissingFieldCheck([{ rules: inPriorityOrder(live), touched: () => true }]),
    agreement: new AgreementTally(new Map(live.map((rule) => [rule.ruleId, rule]))),
  };
  const started = performance.now();
  const progress = await progressOf(files, ctx.cwd, tallies.main, request.onProgress);
  const readingOf = (file: string): TrafficReadOptions => ({ ...reading, ...progress.of(file) });
  const engine = request.engine ?? 'js';
  if (engine === 'duckdb') for (const how of await decideWithDuckDb(files, readingOf, sets, tallies)) ctx.debug(how);
  else await decideWithJs(files, readingOf, js(), tallies);
  const seconds = (performance.now() - started) / 1000;
  const against = liveFile === undefined ? 'the live rules' : `the live snapshot ${JSON.stringify(liveFile)}`;
  const context = { app: app.name, against, files: [...files], notApplied: plan.blocked.map((rule) => rule.name) };
  const report = tallies.main.report(context);
  report.coverage = tallies.main.coverage(tallies.missing.rulesReading);
  const production = tallies.agreement.report();
  if (production !== undefined) report.production = production;
  report.engine = { name: engine, requestsPerSecond: Math.round(report.evaluated / Math.max(seconds, 1e-3)) };
  report.ruleSets = { live: fingerprintRules(sets[0] as LiveRule[]), declared: fingerprintRules(afterRules) };
  if (shadow.length > 0) {
    const { transitions, undecided } = tallies.shadow.report(context);
    report.shadow = { rules: shadow.map((rule) => rule.name), transitions, undecided: undecided.declared };
  }
  ctx.debug(`replayed ${report.read} log lines in ${Math.round(seconds * 1000)} ms (${engine} engine)`);
  return report;
}

/** The js engine: every request decided as it is read, by the sets compiled together (sharing each leaf's and tree's verdict). */
async function decideWithJs(files: readonly string[], reading: (file: string) => TrafficReadOptions, sets: CompiledRuleSets<LiveRule>, tallies: Tallies): Promise<void> {
  const tally = tallies.main;
  for (const file of files) {
    for await (const batch of readLog(file, reading(file))) {
      for (const { line, result } of batch) {
        if ('skip' in result) {
          tally.skip(result.skip, file, line);
          continue;
        }
        const read: ReadRequest = { example: { file, line, request: result.request }, carriage: result.carriage ?? {}, decision: result.decision };
        if (!tally.fields.count(result.request, read.example, read.carriage, result.keys)) accountEmpty(read, tallies);
        else accountDecided(read, sets.decide(result.request), tallies);
      }
    }
  }
}

/**
 * Whether a rule is one the change touches: a step changes or moves it, or it is only on one
 * side (created or removed). Only their fields decide whether a lacking field leaves an outcome
 * unknown: the other rules are the same on both sides.
 */
function touchedRules(live: readonly LiveRule[], afterRules: readonly LiveRule[], steps: readonly { ruleId: string }[]): (rule: NormalRule) => boolean {
  const stepped = new Set(steps.map((step) => step.ruleId));
  const before = new Set(live.map((rule) => rule.ruleId));
  const after = new Set(afterRules.map((rule) => rule.ruleId));
  return (rule) => {
    const id = (rule as Partial<LiveRule>).ruleId;
    return id === undefined || stepped.has(id) || !before.has(id) || !after.has(id);
  };
}

/**
 * The rules, as apply would leave them, that the files declare `mode: shadow` (paused there):
 * matched as the planner matches (src/semantics/match.ts). A shadow rule the plan cannot
 * apply (blocked) is not among them.
 */
function shadowRules(declared: readonly DeclaredRule[], afterRules: readonly LiveRule[]): LiveRule[] {
  const shadowed = declared.filter((rule) => rule.shadow !== undefined);
  const matched = new Set(matchRules(shadowed, afterRules).matches.map((match) => match.live));
  return afterRules.filter((rule) => matched.has(rule));
}

/** Progress across the files: the bytes of the files before this one plus this one's. */
async function progressOf(files: readonly string[], cwd: string, tally: ReplayTally, onProgress: ReplayRequest['onProgress']) {
  if (onProgress === undefined) return { of: () => ({}) };
  const sizes = await Promise.all(files.map((file) => stat(resolve(cwd, file)).then((info) => info.size, () => 0)));
  const bytesTotal = sizes.reduce((a, b) => a + b, 0);
  return {
    of(file: string): Pick<TrafficReadOptions, 'onBytes'> {
      const before = sizes.slice(0, files.indexOf(file)).reduce((a, b) => a + b, 0);
      return { onBytes: (bytesRead) => onProgress({ bytesRead: before + bytesRead, bytesTotal, lines: tally.lines }) };
    },
  };
}

/** A --live snapshot's apps as a source of live rules; loaded only for --live, so a run against the service never loads the snapshot reader. */
export async function liveSnapshotSource(file: string, cwd: string): Promise<{ takenAt: string; source: ConnectApp }> {
  const [{ readLiveSnapshotFile }, { snapshotSource }] = await Promise.all([import('../live/file.js'), import('../live/snapshot.js')]);
  const snapshot = await readLiveSnapshotFile(resolve(cwd, file), file);
  return { takenAt: snapshot.takenAt, source: snapshotSource(snapshot, file) };
}
