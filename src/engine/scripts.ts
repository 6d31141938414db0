// `scripts report` and `scripts diff` (docs/behaviour.md, "Script inventory"): the inventory
// of a period fetched, marked against the approval policy and handed to a renderer; two
// snapshots compared, and the --fail-on conditions judged.
import { resolve } from 'node:path';
import { scriptsClientFor } from '../api/index.js';
import { UserError } from '../errors.js';
import { diffSnapshots, evaluateFailOn, hasApprovalMarks, type FailOnCondition, type FailOnMatch, type SnapshotDiff } from '../scripts/diff.js';
import type { SnapshotRecord } from '../scripts/model.js';
import type { ReportOutput } from '../scripts/output.js';
import { findPolicy, loadPolicy } from '../scripts/policy.js';
import { compilePolicy, entryUsage, markRecord, unmatchedWarning } from '../scripts/policy-match.js';
import { writeInventoryReport, type InventoryModel, type ReportOptions, type ReportResult } from '../scripts/report.js';
import { readInventorySnapshotFile } from '../scripts/snapshot.js';
import type { Runtime } from '../runtime.js';
import { findPrevious } from './scripts-evidence.js';
import { definedFields } from '../defined.js';


/** The report's options, with the policy and the previous snapshot as the files the user named. */
interface InventoryReportRequest extends Pick<ReportOptions, 'query' | 'pageSize' | 'concurrency' | 'now' | 'onProgress'> {
  /** --policy; else scripts-policy.yaml when present. */
  policyFile?: string;
  /** --previous FILE|DIR: the snapshot the new one links to in the chain. */
  previous?: string;
  /** Opened once the policy and the token are known to be good, so a refusal leaves no file. */
  openOutput(): Promise<ReportOutput>;
  /** Renders the model into the output (the chosen format's renderer). */
  render(model: InventoryModel, output: ReportOutput): Promise<void>;
}

export async function reportInventory(request: InventoryReportRequest, ctx: Runtime): Promise<ReportResult & { file?: string; chainNote?: string }> {
  const policy = await findPolicy(request.policyFile, ctx.cwd);
  const previous = request.previous === undefined ? undefined : await findPrevious(request.previous, request.query, ctx.cwd, request.now);
  const client = scriptsClientFor(ctx);
  const output = await request.openOutput();
  const { query, pageSize, concurrency, now, onProgress } = request;
  ctx.debug(`scripts: window ${new Date(query.from).toISOString()} → ${new Date(query.to).toISOString()}${policy ? `, policy ${policy.file}` : ''}`);
  const result = await writeInventoryReport((page) => client.listScripts(page), {
    query, pageSize, concurrency, now, output,
    render: (model) => request.render(model, output),
    ...definedFields({ policy, previous: previous?.snapshot, onProgress }),
  });
  if (result.takeCap !== undefined) ctx.debug(`scripts: the server returned at most ${result.takeCap} records per page; paging adapted`);
  ctx.debug(`scripts: ${result.count} records in ${result.requests} requests`);
  const warnings = [...result.warnings, ...(previous?.warnings ?? [])];
  return { ...result, warnings, ...definedFields({ file: output.file, chainNote: previous?.note }) };
}

interface InventoryDiffRequest {
  oldFile: string;
  newFile: string;
  /** Re-check NEW's approvals against this policy instead of the marks NEW carries. */
  policyFile?: string;
  failOn: readonly FailOnCondition[];
}

interface InventoryDiff {
  diff: SnapshotDiff;
  /** With --policy: the entries that matched no script of NEW. */
  policyWarnings?: string[];
  /** The --fail-on conditions that matched; undefined when none were asked for. */
  failOn?: FailOnMatch[];
}

export async function diffInventories(request: InventoryDiffRequest, ctx: Runtime): Promise<InventoryDiff> {
  const older = await readInventorySnapshotFile(resolve(ctx.cwd, request.oldFile), 'OLD');
  const newer = await readInventorySnapshotFile(resolve(ctx.cwd, request.newFile), 'NEW');
  const { records: newRecords, policyWarnings } = await approvalRecords(newer.records, request, ctx.cwd);
  // Diffed with the approvals judged, so the added scripts say whether they are approved.
  const diff = diffSnapshots(older, { ...newer, records: newRecords });
  const warned = policyWarnings.length > 0 ? { policyWarnings } : {};
  return request.failOn.length === 0 ? { diff, ...warned } : { diff, ...warned, failOn: evaluateFailOn(diff, newRecords, request.failOn) };
}

/**
 * The records `unapproved` is judged on: NEW's own approval marks (the evidence as it was
 * taken), or NEW re-checked against the policy today when one is given.
 */
async function approvalRecords(records: SnapshotRecord[], request: InventoryDiffRequest, cwd: string): Promise<{ records: SnapshotRecord[]; policyWarnings: string[] }> {
  if (request.policyFile !== undefined) {
    const policy = await loadPolicy(resolve(cwd, request.policyFile), cwd);
    const matcher = compilePolicy(policy, Date.now());
    const usage = entryUsage(policy);
    const marked = records.map((record) => {
      usage.note(record);
      return markRecord(record, matcher);
    });
    return { records: marked, policyWarnings: records.length === 0 ? [] : usage.unmatched().map((entry) => unmatchedWarning(entry, 'in NEW')) };
  }
  if (request.failOn.includes('unapproved') && records.length > 0 && !hasApprovalMarks(records)) {
    throw new UserError('--fail-on unapproved: the NEW snapshot carries no approval marks', [
      'Take the report with a policy (scripts-policy.yaml or --policy), or pass --policy FILE to scripts diff.',
    ]);
  }
  return { records, policyWarnings: [] };
}
