// The script-inventory query (docs/service-api.md, "Get scripts") on the gateway host.
import { RemoteError } from '../errors.js';
import type { Paging, ScriptQuery, ScriptRecord, ScriptsPage } from '../scripts/model.js';
import { createHostClient } from './http.js';
import { API_TOKEN_VARIABLE, type ScriptsApi, type ScriptsClientOptions } from './types.js';
import { isObject } from '../io/json-depth.js';

const SCRIPTS_PATH = 'v1/scripts';

export function createScriptsClient(options: ScriptsClientOptions): ScriptsApi {
  const host = createHostClient(options);
  const tokenHint = options.tokenVariable === API_TOKEN_VARIABLE
    ? `check ${API_TOKEN_VARIABLE}`
    : `check ${options.tokenVariable} (used because ${API_TOKEN_VARIABLE} is not set)`;

  async function listScripts(query: ScriptQuery): Promise<ScriptsPage> {
    const operation = `listing scripts (skip ${query.skip}, take ${query.take})`;
    const body = await host.send({
      method: 'GET',
      path: SCRIPTS_PATH,
      searchParams: scriptSearchParams(query),
      operation,
      explainStatus: (status, serverMessage) => {
        const said = serverMessage ? `: ${serverMessage}` : '';
        if (status === 401 || status === 403) return `the script inventory did not accept the token (${status}): ${tokenHint}`;
        if (status === 422) return `the script inventory refused the query (422)${said}: check the app ids and domains`;
        return undefined;
      },
    });
    return readPage(body, operation);
  }

  return { listScripts };
}

/** Lists go as JSON-array text in one value each (docs/service-api.md, "Get scripts"); every field is sent. */
function scriptSearchParams(query: ScriptQuery): Record<string, string> {
  return {
    appId: JSON.stringify(query.appId),
    tld: JSON.stringify(query.tld),
    from: String(query.from),
    to: String(query.to),
    skip: String(query.skip),
    take: String(query.take),
  };
}

/**
 * A loose check: the paging count and the record list are what the tool relies on.
 * Record fields are all optional on the wire, so records only need to be objects.
 */
function readPage(body: unknown, operation: string): ScriptsPage {
  const malformed = (problem: string) =>
    new RemoteError(`the service returned a script page botrules does not understand: ${problem}`, { operation });
  if (!isObject(body)) throw malformed('the answer is not an object');
  const { paging, data } = body;
  if (!isObject(paging)) throw malformed('paging is missing or not an object');
  if (typeof paging.count !== 'number' || !Number.isInteger(paging.count) || paging.count < 0) {
    throw malformed('paging.count is not a whole number');
  }
  if (!Array.isArray(data)) throw malformed('data is missing or not a list');
  const notRecord = data.findIndex((record) => !isObject(record));
  if (notRecord >= 0) throw malformed(`data[${notRecord}] is not an object`);
  const link = (value: unknown) => (typeof value === 'string' ? value : '');
  const page: Paging = { previous: link(paging.previous), current: link(paging.current), next: link(paging.next), count: paging.count };
  return { paging: page, data: data as ScriptRecord[] };
}
