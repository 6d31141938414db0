// The DuckDB engine's package, loaded only when `--engine duckdb` (or a Parquet log) needs it:
// @duckdb/node-api carries a native binary of tens of megabytes, and an install without it (the
// bundled action, a platform it has no binary for) still replays with the js engine.
import { UserError } from '../../errors.js';

export type DuckDbApi = typeof import('@duckdb/node-api');

/** The version package.json pins: the one the engine is tested with. */
export const DUCKDB_PACKAGE = '@duckdb/node-api@1.5.6-r.1';

let loaded: Promise<DuckDbApi> | undefined;

export function loadDuckDb(): Promise<DuckDbApi> {
  loaded ??= import('@duckdb/node-api').catch((error: unknown) => {
    loaded = undefined;
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new UserError(`the duckdb engine needs the package ${DUCKDB_PACKAGE}, which cannot be loaded here (${reason})`, [
      `Install it beside botrules: npm install ${DUCKDB_PACKAGE} (an npm ci of botrules's own package.json has it; the bundled GitHub action does not)`,
      'Or replay with the JavaScript engine: --engine js (the default)',
    ]);
  });
  return loaded;
}
