// The synthetic traffic as Parquet (docs/replay.md, "Synthetic traffic"): one column per request
// field, as `replay --emit-sql` expects its table (`headers`, `query` and `custom` as maps of
// strings), the ASN as a 64-bit integer and a timestamp column as a warehouse export has them.
// Written one row group at a time through an open file, so memory stays flat in the count.
import { open, type FileHandle } from 'node:fs/promises';
import type { SchemaElement } from 'hyparquet';
import { ByteWriter, ParquetWriter, type ColumnSource, type Writer } from 'hyparquet-writer';
import type { TrafficRequest } from './traffic-formats.js';

/** Rows per row group: large enough for real compression, small enough to hold at once. */
const ROW_GROUP = 10_000;

const text = (name: string): SchemaElement => ({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' });
const map = (name: string): SchemaElement[] => [
  { name, repetition_type: 'OPTIONAL', converted_type: 'MAP', num_children: 1 },
  { name: 'key_value', repetition_type: 'REPEATED', num_children: 2 },
  { name: 'key', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
  { name: 'value', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
];

const TEXT_COLUMNS = ['path', 'method', 'userAgent', 'ip', 'country', 'domain', 'deviceType'] as const;
const MAP_COLUMNS = ['headers', 'query', 'custom'] as const;

const SCHEMA: SchemaElement[] = [
  { name: 'schema', num_children: 2 + TEXT_COLUMNS.length + MAP_COLUMNS.length },
  { name: 'time', type: 'INT64', converted_type: 'TIMESTAMP_MILLIS', repetition_type: 'OPTIONAL' },
  ...TEXT_COLUMNS.map(text),
  { name: 'asn', type: 'INT64', repetition_type: 'OPTIONAL' },
  ...MAP_COLUMNS.flatMap(map),
];

/** Writes the requests to a new file (never over an existing one), `timeOf(i)` as each row's time. */
export async function writeParquetTraffic(file: string, requests: Iterable<TrafficRequest>, timeOf: (i: number) => Date): Promise<void> {
  const handle = await open(file, 'wx');
  try {
    const writer = new ParquetWriter({ writer: fileWriter(handle), schema: SCHEMA, createdBy: 'botrules emulator' });
    let rows: TrafficRequest[] = [];
    let written = 0;
    const flush = async () => {
      await writer.write({ columnData: columnsOf(rows, written, timeOf), rowGroupSize: ROW_GROUP });
      written += rows.length;
      rows = [];
    };
    for (const request of requests) {
      rows.push(request);
      if (rows.length === ROW_GROUP) await flush();
    }
    if (rows.length > 0 || written === 0) await flush();
    await writer.finish();
  } finally {
    await handle.close();
  }
}

function columnsOf(rows: readonly TrafficRequest[], first: number, timeOf: (i: number) => Date): ColumnSource[] {
  return [
    { name: 'time', data: rows.map((_, i) => timeOf(first + i)) },
    ...TEXT_COLUMNS.map((name) => ({ name, data: rows.map((request) => request[name]) })),
    { name: 'asn', data: rows.map((request) => BigInt(request.asn)) },
    ...MAP_COLUMNS.map((name) => ({ name, data: rows.map((request) => request[name] ?? null) })),
  ];
}

/** hyparquet-writer's byte writer, its bytes written to the file after each row group and at the end. */
function fileWriter(handle: FileHandle): Writer {
  const bytes = new ByteWriter();
  const flush = async () => {
    await handle.write(new Uint8Array(bytes.buffer, 0, bytes.index));
    bytes.index = 0;
  };
  return Object.assign(bytes, { flush, finish: flush });
}
