// Entry point for commands: clients configured from the environment (docs/behaviour.md, "Configuration and environment").
// Everything a request needs is checked here, before any connection is made.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UserError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { AppConfig } from '../rules/config.js';
import { createRulesClient } from './rules-client.js';
import { createScriptsClient } from './scripts-client.js';
import { createGitHubClient, DEFAULT_GITHUB_API_URL, GITHUB_API_URL_VARIABLE, GITHUB_TOKEN_VARIABLES, type GitHubApi } from './github-client.js';
import {
  API_TOKEN_VARIABLE, CONSOLE_URL_VARIABLE, EXTRA_CA_VARIABLE, FALLBACK_TOKEN_VARIABLE, GATEWAY_URL_VARIABLE, TIMEOUT_VARIABLE,
  type HostOptions, type RulesApi, type ScriptsApi,
} from './types.js';

export { createRulesClient } from './rules-client.js';
export { createScriptsClient } from './scripts-client.js';
export { branchPath, checkedRepository, GITHUB_REPOSITORY_VARIABLE, type GitHubApi } from './github-client.js';
export type { RulesApi, RulesClientOptions } from './types.js';
import { definedFields } from '../defined.js';

/** The rule operations of one app, with its URL and token from the environment. */
export function rulesClientFor(app: AppConfig, ctx: Runtime): RulesApi {
  const baseUrl = requireVariable(ctx, CONSOLE_URL_VARIABLE,
    'set it to the management host\'s API base, ending in /api (for example https://console.example.com/api)');
  const token = requireVariable(ctx, app.tokenEnv, `it must hold the server token of app ${app.name}`);
  return createRulesClient({
    ...hostOptions(ctx, baseUrl, CONSOLE_URL_VARIABLE, token, app.tokenEnv),
    app: app.name,
  });
}

/** The script inventory, with BOTRULES_API_TOKEN (or BOTRULES_TOKEN when that is unset). */
export function scriptsClientFor(ctx: Runtime): ScriptsApi {
  const baseUrl = requireVariable(ctx, GATEWAY_URL_VARIABLE,
    'set it to the gateway host\'s base address (for example https://gateway.example.com)');
  const tokenVariable = ctx.env(API_TOKEN_VARIABLE) !== undefined ? API_TOKEN_VARIABLE : FALLBACK_TOKEN_VARIABLE;
  const token = ctx.env(tokenVariable);
  if (token === undefined) {
    throw new UserError(
      `${API_TOKEN_VARIABLE} is not set (nor ${FALLBACK_TOKEN_VARIABLE}, its fallback): ` +
        'set it to the API token of the script inventory',
    );
  }
  return createScriptsClient(hostOptions(ctx, baseUrl, GATEWAY_URL_VARIABLE, token, tokenVariable));
}

function hostOptions(ctx: Runtime, baseUrl: string, urlVariable: string, token: string, tokenVariable: string): HostOptions {
  const extraCaPem = readExtraCa(ctx);
  const timeoutSeconds = ctx.timeoutSeconds ?? readTimeoutVariable(ctx);
  return {
    baseUrl, urlVariable, token, tokenVariable,
    debug: (line) => ctx.debug(line),
    notice: (line) => ctx.notice(line),
    ...definedFields({ extraCaPem, timeoutMs: timeoutSeconds === undefined ? undefined : Math.round(timeoutSeconds * 1000) }),
  };
}

/** BOTRULES_TIMEOUT: seconds per request, when --timeout is not given. */
function readTimeoutVariable(ctx: Runtime): number | undefined {
  const value = ctx.env(TIMEOUT_VARIABLE);
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!/^\s*\d+(\.\d+)?\s*$/.test(value) || seconds <= 0 || seconds > 3600) {
    throw new UserError(`${TIMEOUT_VARIABLE} must be a number of seconds above 0 and at most 3600 `);
  }
  return seconds;
}

function requireVariable(ctx: Runtime, name: string, hint: string): string {
  const value = ctx.env(name);
  if (value === undefined) throw new UserError(`${name} is not set: ${hint}`);
  return value;
}

/**
 * The PEM file NODE_EXTRA_CA_CERTS names, read here because Node itself reads that variable
 * only when the process starts: this way a value in the environment given to a command
 * (as in tests that run the CLI in-process) is trusted the same way.
 */
function readExtraCa(ctx: Runtime): string | undefined {
  const named = ctx.env(EXTRA_CA_VARIABLE);
  if (named === undefined) return undefined;
  const file = resolve(ctx.cwd, named);
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UserError(
      `${EXTRA_CA_VARIABLE} names ${file}, which cannot be read (${code}): ` +
        'point it at the PEM file of the CA that signed the service\'s certificate',
    );
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    throw new UserError(`${EXTRA_CA_VARIABLE} names ${file}, which holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  }
  return pem;
}

/**
 * The GitHub API with the workflow's token (GH_TOKEN, else GITHUB_TOKEN) at GITHUB_API_URL
 * (github.com's API when unset, as outside GitHub Enterprise).
 */
export function githubClientFor(ctx: Runtime): GitHubApi {
  const baseUrl = ctx.env(GITHUB_API_URL_VARIABLE) ?? DEFAULT_GITHUB_API_URL;
  const tokenVariable = GITHUB_TOKEN_VARIABLES.find((name) => ctx.env(name) !== undefined);
  const token = tokenVariable === undefined ? undefined : ctx.env(tokenVariable);
  if (tokenVariable === undefined || token === undefined) {
    throw new UserError(`${GITHUB_TOKEN_VARIABLES.join(' or ')} must hold the workflow's token (in a workflow: GH_TOKEN: \${{ github.token }})`);
  }
  return createGitHubClient(hostOptions(ctx, baseUrl, GITHUB_API_URL_VARIABLE, token, tokenVariable));
}
