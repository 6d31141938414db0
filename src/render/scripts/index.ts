// Script inventory renderers, registered by format name (the `--format` choices), on the one
// renderer contract (../contract.ts). Reports read an InventoryModel (page by page or as the
// finished snapshot); diffs read the diff and the `--fail-on` matches.
import type { FailOnMatch, SnapshotDiff } from '../../scripts/diff.js';
import type { Snapshot } from '../../scripts/model.js';
import { checkSnapshotSize } from '../../scripts/snapshot.js';
import type { InventoryModel } from '../../scripts/report.js';
import { formatNames, type OutputRegistry, type Sink } from '../contract.js';
import { safeJson } from '../sanitise.js';
import { renderDiffJson, renderDiffMarkdown, renderDiffText } from './diff.js';
import { renderReportMarkdown } from './report-markdown.js';
import { csvSink, ndjsonSink, type RecordSink } from './streamed.js';

/** The snapshot file: two-space JSON, records already sorted by key, trailing newline. */
export function renderSnapshotJson(snapshot: Snapshot): string {
  return `${safeJson(JSON.stringify(snapshot, null, 2))}\n`;
}

/** Writes each page's records through a record sink as the pages arrive. */
async function streamed(model: InventoryModel, records: RecordSink): Promise<void> {
  await model.stream((page) => records.write(page));
  await records.end();
}

const emitTo = (sink: Sink) => async (chunk: string) => {
  await sink.write(chunk);
};

export const REPORT_OUTPUTS = {
  json: {
    stdout: async (model, sink) => {
      const text = renderSnapshotJson(await model.snapshot());
      checkSnapshotSize(text);
      await sink.write(text);
    },
  },
  ndjson: { stdout: (model, sink) => streamed(model, ndjsonSink(emitTo(sink))) },
  csv: { stdout: (model, sink, options) => streamed(model, csvSink(emitTo(sink), { formulaEscape: options.csvFormulaEscape !== false, terminal: options.terminal === true })) },
  markdown: { stdout: async (model, sink) => { await sink.write(renderReportMarkdown(await model.snapshot())); } },
} as const satisfies OutputRegistry<InventoryModel>;

export type ReportFormat = keyof typeof REPORT_OUTPUTS;
export const REPORT_FORMATS = formatNames(REPORT_OUTPUTS);

/** What `scripts diff` shows: the diff, and the `--fail-on` matches when it was given. */
export interface DiffModel {
  diff: SnapshotDiff;
  failOn?: FailOnMatch[];
}

export const INVENTORY_DIFF_OUTPUTS = {
  text: { stdout: async ({ diff }, sink, options) => { await sink.write(renderDiffText(diff, options.colors)); } },
  json: { stdout: async ({ diff, failOn }, sink) => { await sink.write(renderDiffJson(diff, failOn)); } },
  markdown: { stdout: async ({ diff }, sink) => { await sink.write(renderDiffMarkdown(diff)); } },
} as const satisfies OutputRegistry<DiffModel>;

export const INVENTORY_DIFF_FORMATS = formatNames(INVENTORY_DIFF_OUTPUTS);
