// The snapshot value (the `json` report format) and reading one back for `scripts diff`.
import { MAX_JSON_FILE_BYTES, readCappedText } from '../io/capped-read.js';
import { jsonTooDeep, parseJsonOr } from '../io/json-depth.js';
import { UserError } from '../errors.js';
import { schemaErrorLines } from '../io/schema-messages.js';
import { validateSnapshot } from '../generated/validators.js';
import { VERSION } from '../version.js';
import type { InventoryQuery, Snapshot, SnapshotRecord } from './model.js';
import { normaliseRecord, sortRecords } from './records.js';
import { definedFields } from '../defined.js';

const MAX_SCHEMA_ERRORS = 20;

interface SnapshotInput {
  query: InventoryQuery;
  takenAt: number;
  records: SnapshotRecord[];
  policyFile?: string;
  warnings: string[];
}

/** Builds the snapshot: records normalised and sorted by key, so two runs diff line by line. */
export function buildSnapshot(input: SnapshotInput): Snapshot {
  const records = sortRecords(input.records.map(normaliseRecord));
  return {
    formatVersion: 1,
    query: {
      appId: input.query.appId,
      tld: input.query.tld,
      from: new Date(input.query.from).toISOString(),
      to: new Date(input.query.to).toISOString(),
      fromMs: input.query.from,
      toMs: input.query.to,
    },
    takenAt: new Date(input.takenAt).toISOString(),
    tool: { name: 'botrules', version: VERSION },
    ...definedFields({ policy: input.policyFile === undefined ? undefined : { file: input.policyFile } }),
    count: records.length,
    ...(input.warnings.length === 0 ? {} : { warnings: input.warnings }),
    records,
  };
}

/**
 * The snapshot file as it will be written, refused when it is larger than what `scripts diff`,
 * `verify`, `evidence` and `--previous` read back (src/io/capped-read.ts): the bytes counted are
 * the bytes written (indented, escaped, UTF-8), so no report writes a file the others refuse.
 */
export function checkSnapshotSize(text: string): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= MAX_JSON_FILE_BYTES) return;
  const mebibytes = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  throw new UserError(`the snapshot would be ${mebibytes(bytes)} as written, more than the ${mebibytes(MAX_JSON_FILE_BYTES)} scripts diff, verify, evidence and --previous read back`, [
    'Narrow the window (--from, --to) or the --app-id / --tld lists, or write --format ndjson or csv, which stream.',
    'Nothing was written.',
  ]);
}

/** Reads and validates a snapshot file; `label` (OLD/NEW) says which argument was wrong. */
export async function readInventorySnapshotFile(path: string, label: string): Promise<Snapshot> {
  let text: string;
  try {
    text = await readCappedText(path, `${label} snapshot ${path}`, 'a script inventory snapshot');
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw new UserError(`${label} snapshot ${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(err)}`);
  }
  const tooDeep = jsonTooDeep(text);
  if (tooDeep) throw new UserError(`${label} snapshot ${path}:${tooDeep.line}:${tooDeep.col}: the snapshot ${tooDeep.message}`);
  const value = parseJsonOr(text, (err) => {
    throw new UserError(`${label} snapshot ${path} is not JSON (${err.message})`, ['Snapshots are written by `botrules scripts report --format json`.']);
  });
  return parseSnapshot(value, `${label} snapshot ${path}`);
}

/** Checks a parsed value against schemas/scripts-snapshot.schema.json. */
export function parseSnapshot(value: unknown, what: string): Snapshot {
  // Compiled from schemas/scripts-snapshot.schema.json at build time (scripts/build-validators.js).
  const validate = validateSnapshot;
  if (validate(value)) return value as Snapshot;
  const all = schemaErrorLines(validate.errors ?? [], value);
  const lines = all.slice(0, MAX_SCHEMA_ERRORS).map((line) => `  ${line}`);
  if (all.length > MAX_SCHEMA_ERRORS) lines.push(`… and ${all.length - MAX_SCHEMA_ERRORS} more`);
  throw new UserError(`${what} is not a botrules snapshot (formatVersion 1)`, [
    ...lines,
    'Snapshots are written by `botrules scripts report --format json`.',
  ]);
}

