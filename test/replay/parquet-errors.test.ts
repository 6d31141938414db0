// Bad Parquet input (docs/replay.md, "Parquet"): a file that is not Parquet though named so or
// named so by --log-format, one cut short, a damaged footer or column chunk, a column of a type
// its field cannot hold, a codec replay cannot read. Each is an error naming the file (and the
// row group and column where it has them), exit 1, and no report; a file of no rows is a report
// of nothing read, which is not an all-clear.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { botrules, NDJSON, replayProject } from './fixtures.js';
import { checkRowGroups, MAX_GROUP_ROWS, MAX_PAGE_BYTES, withPageLimit } from '../../src/replay/parquet.js';
import { chunkOf, parquetBytes, writeParquet, type Column } from './parquet-files.js';

const FIXTURE = readFileSync(path.resolve('test/fixtures/logs/warehouse.parquet'));
const FIELDS = { path: 'request_path', userAgent: 'user_agent', headers: 'request_headers' };

let project: string;
beforeAll(() => {
  project = replayProject();
  writeFileSync(path.join(project, 'botrules.yaml'), stringify({ apps: [{ name: 'shop', rulesDir: 'rules' }], replay: { fields: FIELDS } }));
});

/** The first line of stderr, after checking that the run failed with no report at all. */
async function refusal(file: string, bytes: Uint8Array | string, ...args: string[]): Promise<string> {
  writeFileSync(path.join(project, file), bytes);
  const result = await botrules(project, 'replay', '--live', 'live.json', '--format', 'json', ...args, file);
  expect(result.stdout).toBe('');
  expect(result.code).toBe(1);
  return result.stderr.split('\n')[0] ?? '';
}

describe('files that are not Parquet, or not whole', () => {
  it('refuses a file named .parquet that is not Parquet', async () => {
    expect(await refusal('events.parquet', NDJSON)).toBe('error: events.parquet: not a Parquet file: it does not start with the PAR1 magic bytes');
  });

  it('refuses an NDJSON log named Parquet by --log-format, and gzip-compressed Parquet', async () => {
    expect(await refusal('a.ndjson', NDJSON, '--log-format', 'parquet')).toBe('error: a.ndjson: not a Parquet file: it does not start with the PAR1 magic bytes');
    const { gzipSync } = await import('node:zlib');
    expect(await refusal('b.parquet.gz', gzipSync(FIXTURE), '--log-format', 'parquet')).toBe('error: b.parquet.gz: not a Parquet file: it does not start with the PAR1 magic bytes (it is gzip data)');
  });

  it('refuses a Parquet file cut short (its footer missing)', async () => {
    expect(await refusal('cut.parquet', FIXTURE.subarray(0, Math.floor(FIXTURE.length / 2))))
      .toBe('error: cut.parquet: the Parquet file is cut short or damaged: it starts with PAR1 but does not end with it, so its footer (schema and row groups) is missing');
  });

  it('refuses a damaged footer', async () => {
    const damaged = Buffer.from(FIXTURE);
    // The footer's length (the 4 bytes before the closing PAR1) pointing past the file's start.
    damaged.writeUInt32LE(FIXTURE.length * 2, FIXTURE.length - 8);
    expect(await refusal('footer.parquet', damaged)).toMatch(/^error: footer\.parquet: the Parquet footer \(schema and row groups\) cannot be read: /);
  });

  it('names the row group, its rows and the column of a damaged column chunk', async () => {
    const damaged = Buffer.from(FIXTURE);
    const chunk = chunkOf(damaged, 1, 'user_agent');
    damaged.fill(0xff, chunk.start, chunk.start + chunk.length);
    expect(await refusal('chunk.parquet', damaged)).toMatch(/^error: chunk\.parquet: row group 2 \(rows 13–24\), column "user_agent": cannot be read: /);
  });
});

describe('columns of a type the field cannot hold', () => {
  const file = (columns: Column[]) => parquetBytes([{ name: 'user_agent', type: 'STRING', data: ['Mozilla/5.0'] }, ...columns]);

  it('refuses a number where a string field is expected, naming the column and the field', async () => {
    expect(await refusal('int.parquet', file([{ name: 'request_path', type: 'INT64', data: [1n] }])))
      .toBe('error: int.parquet: column "request_path" is INT64, but the request field path (replay.fields.path) needs a string column');
  });

  it('refuses a nested type for path, and a map of lists of numbers for headers', async () => {
    expect(await refusal('struct.parquet', file([{ name: 'request_path', type: 'STRUCT', fields: ['stem', 'query'], data: [{ stem: '/a', query: null }] }])))
      .toBe('error: struct.parquet: column "request_path" is a struct, but the request field path (replay.fields.path) needs a string column');
    expect(await refusal('list.parquet', file([{ name: 'request_path', type: 'STRING', data: ['/a'] }, { name: 'request_headers', type: 'INT32', data: [1] }])))
      .toBe('error: list.parquet: column "request_headers" is INT32, but the request field headers (replay.fields.headers) needs a map of strings, a struct of strings, a JSON column or a string column');
  });

  it('refuses a column of the request field\'s own name of the wrong type', async () => {
    const own = replayProject();
    writeParquet(path.join(own, 'own.parquet'), [{ name: 'path', type: 'STRING', data: ['/a'] }, { name: 'country', type: 'BOOLEAN', data: [true] }]);
    const result = await botrules(own, 'replay', '--live', 'live.json', 'own.parquet');
    expect(result.stderr.split('\n')[0]).toBe('error: own.parquet: column "country" is BOOLEAN, but the request field country needs a string column');
    expect(result.code).toBe(1);
  });
});

it('refuses a preset\'s column of a type the preset cannot read', async () => {
  const dir = replayProject();
  writeParquet(path.join(dir, 'logpush.parquet'), [
    { name: 'ClientRequestURI', type: 'STRING', data: ['/a'] },
    { name: 'ClientASN', type: 'STRUCT', fields: ['number', 'name'], data: [{ number: '13335', name: 'CLOUDFLARENET' }] },
  ]);
  const result = await botrules(dir, 'replay', '--live', 'live.json', 'logpush.parquet');
  expect(result.stderr.split('\n')[0]).toBe('error: logpush.parquet: column "ClientASN" is a struct, but the cloudflare preset needs a string column, an integer column or a boolean column');
  expect(result.code).toBe(1);
});

it('refuses a codec replay cannot read, naming the row group and column', async () => {
  // LZO: hyparquet-writer writes whatever the compressor gives; no reader in JavaScript decodes LZO.
  const lzo = parquetBytes([{ name: 'request_path', type: 'STRING', data: ['/a', '/b'] }], { codec: 'LZO', compressors: { LZO: (input) => input } });
  expect(await refusal('lzo.parquet', lzo)).toBe('error: lzo.parquet: row group 1, column "request_path": compressed with LZO, which replay cannot read (it reads UNCOMPRESSED, SNAPPY, GZIP, BROTLI, ZSTD, LZ4, LZ4_RAW)');
});

it('reports a file of no rows as nothing read, never as an all-clear', async () => {
  writeParquet(path.join(project, 'empty.parquet'), [{ name: 'request_path', type: 'STRING', data: [] }]);
  const result = await botrules(project, 'replay', '--live', 'live.json', '--format', 'json', 'empty.parquet');
  expect(JSON.parse(result.stdout)).toMatchObject({ read: 0, evaluated: 0 });
  expect(result.code).not.toBe(0);
});

it('refuses a footer claiming a row group larger than replay decodes at once, before any row is read', () => {
  const claimed = (rows: bigint) => ({ row_groups: [{ num_rows: 12n, columns: [] }, { num_rows: rows, columns: [] }] }) as unknown as Parameters<typeof checkRowGroups>[1];
  expect(() => checkRowGroups('huge.parquet', claimed(BigInt(MAX_GROUP_ROWS)))).not.toThrow();
  expect(() => checkRowGroups('huge.parquet', claimed(BigInt(MAX_GROUP_ROWS) + 1n))).toThrow('huge.parquet: row group 2 claims 10000001 rows, more than replay decodes at once (10,000,000)');
  expect(() => checkRowGroups('huge.parquet', claimed(-1n))).toThrow('huge.parquet: row group 2 claims -1 rows');
});

it('decompresses no page whose header claims more than 256 MiB (the decoder would allocate it first)', () => {
  const calls: number[] = [];
  const { ANY: limited } = withPageLimit({ ANY: (_input, length) => { calls.push(length); return new Uint8Array(0); } });
  limited?.(new Uint8Array(0), MAX_PAGE_BYTES);
  expect(() => limited?.(new Uint8Array(0), MAX_PAGE_BYTES + 1)).toThrow(`a page claims ${MAX_PAGE_BYTES + 1} bytes decompressed, more than replay decompresses (${MAX_PAGE_BYTES})`);
  expect(calls).toEqual([MAX_PAGE_BYTES]);
});

it('stops a GZIP page at its stated size: more is a damaged page, named with its row group and column', async () => {
  const { gzipSync } = await import('node:zlib');
  // Each page's bytes followed by 16 MiB of zeros: a page that inflates far past what its header says.
  const bomb = parquetBytes([{ name: 'request_path', type: 'STRING', data: ['/a', '/b'] }], { codec: 'GZIP', compressors: { GZIP: (input) => gzipSync(Buffer.concat([input, Buffer.alloc(16 * 1024 * 1024)])) } });
  expect(bomb.length).toBeLessThan(100_000);
  expect(await refusal('bomb.parquet', bomb)).toMatch(/^error: bomb\.parquet: row group 1 \(rows 1–2\), column "request_path": cannot be read: /);
});
