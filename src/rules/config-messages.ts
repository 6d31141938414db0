// How schema problems in botrules.yaml are worded.
import type { SchemaIssue, SchemaMessages } from '../io/schema-messages.js';
import type { Path } from '../io/yaml-source.js';

/** Keys that look like a secret written into the file. */
const SECRET_KEY = /token|secret|password|passwd|api[-_]?key|credential/i;

export const configFileMessages: SchemaMessages = { describe, explain };

function describe(path: Path): string {
  if (path.length === 0) return 'the top level';
  if (path.length === 2 && path[0] === 'apps' && typeof path[1] === 'number') return 'app';
  return String(path.at(-1));
}

function explain(issue: SchemaIssue): string | undefined {
  const { keyword, path, params, data } = issue;
  if (keyword === 'additionalProperties' && SECRET_KEY.test(String(params.additionalProperty))) {
    return `"${String(params.additionalProperty)}" must not be in the config: tokens are never written in files; ` +
      'put the token in an environment variable and name that variable with tokenEnv';
  }
  if (path.length === 0 && keyword === 'type') {
    return data === null || data === undefined
      ? 'the config file is empty; it holds a mapping with an "apps:" list'
      : 'the top level must be a mapping with an "apps:" list';
  }
  if (keyword === 'pattern' && path.at(-1) === 'tokenEnv') {
    // A prefix of its own keeps the token out of variables with another meaning: GITHUB_TOKEN
    // is the workflow's own token, NODE_OPTIONS and PATH change what runs (docs/security.md).
    return `tokenEnv ${JSON.stringify(data)} must be an environment variable name starting with BOTRULES_ ` +
      '(upper-case letters, digits and _, e.g. BOTRULES_TOKEN_SHOP), never a variable such as GITHUB_TOKEN, NODE_OPTIONS or PATH; ' +
      'it names the variable that holds the token, never the token itself';
  }
  if (path.at(-1) === 'shadowMaxAge') return `shadowMaxAge ${JSON.stringify(data)} must be a number of days, such as "30d"`;
  if (path.at(-1) === 'maxNewlyBlocked') {
    // One sentence for both accepted forms (the schema's anyOf has one error per form).
    return `maxNewlyBlocked ${JSON.stringify(data)} must be a share of the replayed requests: a percentage such as "0.5%" (0 to 100), or a fraction from 0 to 1`;
  }
  if (keyword === 'pattern' && path.at(-1) === 'name') {
    return `app name ${JSON.stringify(data)} may hold only letters, digits, ".", "_" and "-", starting with a letter or digit`;
  }
  return undefined;
}
