// Small Parquet files for the tests of `--log-format parquet`, written with hyparquet-writer:
// string, integer, boolean and timestamp columns, maps of strings and structs of strings, any
// codec hyparquet-writer is given a compressor for, and damaged copies (cut short, a byte of a
// column chunk overwritten).
import { writeFileSync } from 'node:fs';
import { parquetMetadata, type CompressionCodec, type SchemaElement } from 'hyparquet';
import { ByteWriter, parquetWrite } from 'hyparquet-writer';

export interface Column {
  name: string;
  type: 'STRING' | 'INT64' | 'INT32' | 'BOOLEAN' | 'MAP' | 'STRUCT' | 'LIST';
  data: unknown[];
  /** A struct's fields (strings). */
  fields?: string[];
}

export interface WriteOptions {
  codec?: CompressionCodec;
  compressors?: Record<string, (input: Uint8Array) => Uint8Array>;
  rowGroupSize?: number;
}

const string = (name: string, repetition: 'OPTIONAL' | 'REQUIRED' = 'OPTIONAL'): SchemaElement => ({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: repetition });

function schemaOf(column: Column): SchemaElement[] {
  switch (column.type) {
    case 'STRING': return [string(column.name)];
    case 'INT64':
    case 'INT32':
    case 'BOOLEAN': return [{ name: column.name, type: column.type, repetition_type: 'OPTIONAL' }];
    case 'MAP': return [
      { name: column.name, repetition_type: 'OPTIONAL', converted_type: 'MAP', num_children: 1 },
      { name: 'key_value', repetition_type: 'REPEATED', num_children: 2 },
      string('key', 'REQUIRED'), string('value'),
    ];
    case 'STRUCT': return [{ name: column.name, repetition_type: 'OPTIONAL', num_children: column.fields?.length ?? 0 }, ...(column.fields ?? []).map((field) => string(field))];
    case 'LIST': return [
      { name: column.name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
      { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
      string('element'),
    ];
  }
}

/** The bytes of a Parquet file of these columns. */
export function parquetBytes(columns: readonly Column[], options: WriteOptions = {}): Uint8Array {
  const writer = new ByteWriter();
  const schema: SchemaElement[] = [{ name: 'schema', num_children: columns.length }, ...columns.flatMap(schemaOf)];
  parquetWrite({
    writer, schema, columnData: columns.map(({ name, data }) => ({ name, data })),
    ...(options.codec === undefined ? {} : { codec: options.codec }),
    ...(options.compressors === undefined ? {} : { compressors: options.compressors }),
    ...(options.rowGroupSize === undefined ? {} : { rowGroupSize: options.rowGroupSize }),
  });
  return new Uint8Array(writer.getBuffer());
}

export function writeParquet(file: string, columns: readonly Column[], options: WriteOptions = {}): void {
  writeFileSync(file, parquetBytes(columns, options));
}

/** Where a column's chunk of a row group starts in the file, and how long it is. */
export function chunkOf(bytes: Uint8Array, group: number, column: string): { start: number; length: number } {
  const metadata = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  const chunk = metadata.row_groups[group]?.columns.find((candidate) => candidate.meta_data?.path_in_schema[0] === column)?.meta_data;
  if (chunk === undefined) throw new Error(`no column ${column} in row group ${group}`);
  return { start: Number(chunk.dictionary_page_offset ?? chunk.data_page_offset), length: Number(chunk.total_compressed_size) };
}
