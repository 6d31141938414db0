// An in-memory DuckDB for the tests of one file, opened before its first test and closed after
// its last, with one thread (as the tests that run SQL in DuckDB have always used it).
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

/** The connection of the file's tests: call it inside a test, once the file's set-up has opened it. */
export function duckdbForFile(): () => DuckDBConnection {
  let instance: DuckDBInstance | undefined;
  let connection: DuckDBConnection | undefined;
  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:', { threads: '1' });
    connection = await instance.connect();
  });
  afterAll(() => {
    connection?.closeSync();
    instance?.closeSync();
  });
  return () => {
    if (connection === undefined) throw new Error('the DuckDB connection is opened before the first test of the file');
    return connection;
  };
}
