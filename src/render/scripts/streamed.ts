// The streamed report formats: records are written as pages arrive, so memory stays flat.
// They are in arrival order (pages are fetched concurrently), not sorted: use the `json`
// snapshot when a stable order matters (git, `scripts diff`).
import { stringify } from 'csv-stringify/sync';
import type { Emit } from '../../scripts/output.js';
import type { SnapshotRecord } from '../../scripts/model.js';
import { normaliseRecord } from '../../scripts/records.js';
import { csvCell, safeJson } from '../sanitise.js';

export interface RecordSink {
  write(records: readonly SnapshotRecord[]): Promise<void>;
  end(): Promise<void>;
}

/** One JSON object per line, fields in the snapshot's order. */
export function ndjsonSink(emit: Emit): RecordSink {
  return {
    write: (records) => (records.length === 0 ? Promise.resolve() : emit(records.map((r) => `${safeJson(JSON.stringify(normaliseRecord(r)))}\n`).join(''))),
    end: () => Promise.resolve(),
  };
}

/**
 * CSV columns, in this fixed order. `page_types` is joined with `;`; `approved` is `true`,
 * `false`, or empty when the report ran without a policy; absent values are empty.
 */
export const CSV_COLUMNS = [
  'key', 'id', 'app_id', 'host_domain', 'type', 'vendor', 'risk_level', 'risk_reason', 'users_affected_percentage',
  'first_seen', 'last_seen', 'page_types', 'ack', 'approved', 'approved_by', 'approval_note'
] as const;

export const CSV_LIST_SEPARATOR = ';';

/**
 * RFC 4180: CRLF line ends, fields with commas, quotes or line breaks quoted, quotes doubled.
 * With `formulaEscape` (the default), cells a spreadsheet would run as a formula start with `'`.
 */
export function csvSink(emit: Emit, options: { formulaEscape: boolean; terminal?: boolean } = { formulaEscape: true }): RecordSink {
  let headerWritten = false;
  const row = (record: SnapshotRecord) => escapedRow(csvRow(record), options.formulaEscape, options.terminal === true);
  const writeRows = async (records: readonly SnapshotRecord[]) => {
    const text = stringify(records.map(row), {
      header: !headerWritten,
      columns: [...CSV_COLUMNS],
      record_delimiter: 'windows',
      // csv-stringify quotes a lone CR or LF only when it is the record delimiter; RFC 4180 wants both quoted.
      quoted_match: /[\r\n]/,
    });
    headerWritten = true;
    await emit(text);
  };
  return {
    write: (records) => (records.length === 0 ? Promise.resolve() : writeRows(records)),
    // An empty inventory still gets its header line.
    end: () => (headerWritten ? Promise.resolve() : writeRows([])),
  };
}

function escapedRow<Row extends Record<string, string>>(row: Row, formulaEscape: boolean, terminal: boolean): Row {
  if (!formulaEscape && !terminal) return row;
  return Object.fromEntries(Object.entries(row).map(([column, value]) => [column, csvCell(value, formulaEscape, terminal)])) as Row;
}

function csvRow(record: SnapshotRecord): Record<(typeof CSV_COLUMNS)[number], string> {
  return {
    key: record.key ?? '',
    id: record.id ?? '',
    app_id: record.app_id ?? '',
    host_domain: record.host_domain ?? '',
    type: record.type ?? '',
    vendor: record.vendor ?? '',
    risk_level: record.risk?.level ?? '',
    risk_reason: record.risk?.reason ?? '',
    users_affected_percentage: record.users_affected_percentage === undefined ? '' : String(record.users_affected_percentage),
    first_seen: record.first_seen ?? '',
    last_seen: record.last_seen ?? '',
    page_types: (record.page_types ?? []).join(CSV_LIST_SEPARATOR),
    ack: record.ack === undefined ? '' : String(record.ack),
    approved: record.approved === undefined ? '' : String(record.approved),
    approved_by: record.approvedBy ?? '',
    approval_note: record.approvalNote ?? '',
  };
}
