// The one place that opens connections: a got instance per host, HTTPS only, no redirects,
// retries built in, every failure turned into a RemoteError that never carries the token.
import got, { type Got, type Response } from 'got';
import { rootCertificates } from 'node:tls';
import { RemoteError, UserError } from '../errors.js';
import { VERSION } from '../version.js';
import { describeFailure, extractServerMessage, type FailureContext } from './failures.js';
import { gotRetryOptions } from './retry.js';
import { DEFAULT_RETRY_POLICY, type HostOptions } from './types.js';

/** Per attempt: connecting, the TLS handshake, sending and reading the whole answer. */
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface ApiRequest {
  method: 'GET' | 'PATCH';
  /** Path below the base URL, without a leading slash. */
  path: string;
  searchParams?: Record<string, string>;
  json?: unknown;
  /** What the tool is doing, for messages: "listing rules of app default". */
  operation: string;
  /** A sentence for statuses that mean something specific to this operation. */
  explainStatus?: (status: number, serverMessage: string | undefined) => string | undefined;
}

export interface HostClient {
  /** Sends the request (retrying when that is safe) and resolves to the parsed JSON of a 2xx answer. */
  send(request: ApiRequest): Promise<unknown>;
}

export function createHostClient(options: HostOptions): HostClient {
  const base = parseHttpsBaseUrl(options.baseUrl, options.urlVariable);
  if (options.token === '') throw new UserError(`${options.tokenVariable} is empty: set it to the token for ${base.host}`);
  const policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const debug = options.debug ?? (() => {});
  const instance = got.extend({
    prefixUrl: base.href,
    headers: {
      authorization: `Bearer ${options.token}`,
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': `botrules/${VERSION}`,
    },
    timeout: { request: options.timeoutMs ?? DEFAULT_TIMEOUT_MS },
    // A redirect could carry the Authorization header to another host: never follow one.
    followRedirect: false,
    responseType: 'text',
    retry: gotRetryOptions(policy, debug),
    // Node reads NODE_EXTRA_CA_CERTS only at start-up; passing the CA here makes a value
    // given to this process's commands (and in-process tests) count the same way.
    ...(options.extraCaPem ? { https: { certificateAuthority: [...rootCertificates, options.extraCaPem] } } : {}),
  });
  const redact = (text: string) => text.split(options.token).join('***');
  const failureContext = { host: base.host, urlVariable: options.urlVariable, tokenVariable: options.tokenVariable, redact };

  async function send(request: ApiRequest): Promise<unknown> {
    const started = Date.now();
    let response: Response<string>;
    try {
      response = await call(instance, request);
    } catch (error) {
      throw describeFailure(error, request, failureContext);
    }
    const attempts = response.retryCount + 1;
    debug(
      `${request.method} ${response.url} -> ${response.statusCode} in ${Date.now() - started} ms` +
        (attempts > 1 ? ` (${attempts} attempts)` : ''),
    );
    if (response.statusCode >= 300) throw redirectRefused(response, request, failureContext);
    return parseJsonBody(response, request, failureContext);
  }

  return { send };
}

/** Parses a base URL and refuses anything but https, before any connection is made. */
export function parseHttpsBaseUrl(value: string, variable: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UserError(`${variable} is not a valid URL: "${value}"`, [`Set it to an https:// address, e.g. https://console.example.com/api`]);
  }
  if (url.protocol !== 'https:') {
    throw new UserError(
      `${variable} must be an https:// URL, not ${url.protocol}//${url.host}: ` +
        'the service refuses plain HTTP, and the token would travel in clear',
    );
  }
  // got joins the request path to the prefix, which must end in a slash.
  if (!url.pathname.endsWith('/')) url.pathname = `${url.pathname}/`;
  url.search = '';
  url.hash = '';
  return url;
}

function call(instance: Got, request: ApiRequest): Promise<Response<string>> {
  return instance(request.path, {
    method: request.method,
    ...(request.searchParams ? { searchParams: request.searchParams } : {}),
    ...(request.json !== undefined ? { json: request.json } : {}),
  }) as Promise<Response<string>>;
}

function redirectRefused(response: Response<string>, request: ApiRequest, context: FailureContext): RemoteError {
  const location = response.headers.location;
  let target = 'an unnamed location';
  if (location) {
    try {
      target = new URL(location, response.url).host;
    } catch {
      target = `"${location.slice(0, 100)}"`;
    }
  }
  return new RemoteError(
    `${request.operation} failed: the service answered ${response.statusCode} redirecting to ${context.redact(target)}; ` +
      `botrules does not follow redirects, so the token never leaves ${context.host}: ` +
      `check ${context.urlVariable} (it should name the API host itself)`,
    { operation: request.operation, status: response.statusCode },
  );
}

function parseJsonBody(response: Response<string>, request: ApiRequest, context: FailureContext): unknown {
  try {
    return JSON.parse(response.body) as unknown;
  } catch {
    const type = response.headers['content-type'] ?? 'no content type';
    const excerpt = extractServerMessage(response.body);
    throw new RemoteError(
      `${request.operation} failed: the answer from ${context.host} is not JSON (${type})` +
        (excerpt ? `: ${context.redact(excerpt)}` : '') +
        `; check that ${context.urlVariable} is the API base address`,
      { operation: request.operation, status: response.statusCode },
    );
  }
}
