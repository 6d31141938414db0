// Script inventory renderers, registered by format name (the `--format` choices).
import type { FailOnMatch, SnapshotDiff } from '../../scripts/diff.js';
import type { Snapshot } from '../../scripts/model.js';
import type { Emit } from '../../scripts/output.js';
import { renderDiffJson, renderDiffMarkdown, renderDiffText, type DiffColors } from './diff.js';
import { renderReportMarkdown } from './report-markdown.js';
import { csvSink, ndjsonSink, type RecordSink } from './streamed.js';

export type { RecordSink } from './streamed.js';
export type { DiffColors } from './diff.js';
export { describeFailOn } from './diff.js';

/**
 * A report format is either streamed (records written page by page, in arrival order) or
 * whole (built from the finished, sorted snapshot).
 */
export type ReportRenderer =
  | { streamed: true; open(emit: Emit): RecordSink }
  | { streamed: false; render(snapshot: Snapshot): string };

export const REPORT_RENDERERS = {
  json: { streamed: false, render: renderSnapshotJson },
  ndjson: { streamed: true, open: ndjsonSink },
  csv: { streamed: true, open: csvSink },
  markdown: { streamed: false, render: renderReportMarkdown },
} as const satisfies Record<string, ReportRenderer>;

export type ReportFormat = keyof typeof REPORT_RENDERERS;
export const REPORT_FORMATS = Object.keys(REPORT_RENDERERS) as ReportFormat[];

/** The snapshot file: two-space JSON, records already sorted by key, trailing newline. */
export function renderSnapshotJson(snapshot: Snapshot): string {
  return `${JSON.stringify(snapshot, null, 2)}\n`;
}

export interface DiffRenderOptions {
  colors?: DiffColors;
  /** Included in the json format when `--fail-on` was given. */
  failOn?: FailOnMatch[];
}

export const DIFF_RENDERERS = {
  text: (diff: SnapshotDiff, options: DiffRenderOptions) => renderDiffText(diff, options.colors),
  json: (diff: SnapshotDiff, options: DiffRenderOptions) => renderDiffJson(diff, options.failOn),
  markdown: (diff: SnapshotDiff) => renderDiffMarkdown(diff),
} as const satisfies Record<string, (diff: SnapshotDiff, options: DiffRenderOptions) => string>;

export type DiffFormat = keyof typeof DIFF_RENDERERS;
export const DIFF_FORMATS = Object.keys(DIFF_RENDERERS) as DiffFormat[];
