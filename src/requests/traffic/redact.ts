// Redaction on read (docs/replay.md, "Secrets in logs"): a log line's cookies, credentials and
// parameters whose names look like secrets are masked before the request is evaluated, counted
// or printed, so no later step (an example request, a JSON report, a debug line) can leak one.
// Masking keeps the name, so `$exists`/`$notExists` still decide as they would on the original.
import type { TestRequest } from '../../evaluate/index.js';

/** The words that start a credential in free text (tested before the full replacement). */
const CREDENTIAL_WORD = /\b(?:Bearer|Basic|Token)\s/i;

/** What a masked value reads as. */
export const REDACTED = '[redacted]';

/** Header names that always carry credentials or session state. */
const SECRET_HEADERS: ReadonlySet<string> = new Set([
  'authorization', 'proxy-authorization', 'cookie', 'set-cookie',
]);

/**
 * Parts of a header, query or custom parameter name that mark it as secret-bearing:
 * `x-api-key`, `access_token`, `sessionid`, `X-Amz-Signature`, `password`, `client_secret`.
 */
const SECRET_NAME = /token|secret|passw(?:or)?d|pwd|api[-_]?key|(?:^|[-_.])key$|session|sess[-_]?id|auth|signature|sig$|credential|jwt|bearer|csrf|xsrf|cookie/i;

/** Whether a header, query or custom parameter of this name is masked by the built-in list. */
export function isSecretName(name: string): boolean {
  return SECRET_HEADERS.has(name.toLowerCase()) || SECRET_NAME.test(name);
}

/**
 * The test of secret names with the project's own added (botrules.yaml `replay.secretNames`):
 * each is a header, query or custom parameter name, compared ignoring case.
 */
export function secretNameTest(configured: readonly string[] = []): (name: string) => boolean {
  if (configured.length === 0) return isSecretName;
  const names = new Set(configured.map((name) => name.toLowerCase()));
  return (name) => names.has(name.toLowerCase()) || isSecretName(name);
}

/** The request with every secret value masked (in place, and returned for chaining). */
export function redactRequest(request: TestRequest, isSecret: (name: string) => boolean = isSecretName): TestRequest {
  if (request.headers !== undefined) maskSecrets(request.headers, isSecret);
  if (request.query !== undefined) maskSecrets(request.query, isSecret);
  if (request.custom !== undefined) maskSecrets(request.custom, isSecret);
  if (request.userAgent !== undefined) request.userAgent = maskCredentialsInText(request.userAgent, isSecret);
  if (request.path !== undefined) request.path = maskCredentialsInText(request.path, isSecret);
  return request;
}

/** Secret-named entries masked whole; the others keep their text with embedded secrets masked. */
function maskSecrets(record: Record<string, string>, isSecret: (name: string) => boolean): void {
  for (const name of Object.keys(record)) {
    record[name] = isSecret(name) ? REDACTED : maskCredentialsInText(record[name] ?? '', isSecret);
  }
}

/**
 * Secrets written into free text: `user:password@` in a URL, `Bearer …`/`Basic …`
 * credentials, and `name=value` pairs with a secret name (a Referer's `?token=…`).
 */
function maskCredentialsInText(text: string, isSecret: (name: string) => boolean): string {
  // Most values hold none of the three shapes: checked once, without the three replacements.
  if (!text.includes('=') && !text.includes('@') && !CREDENTIAL_WORD.test(text)) return text;
  return text
    .replace(/\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`)
    .replace(/(\/\/)[^/@\s:]+:[^/@\s]+@/g, `$1${REDACTED}@`)
    .replace(/([?&;,\s]|^)([^=&;,#\s?]+)=([^&;,#\s]*)/g, (pair, before: string, name: string) =>
      isSecret(name) ? `${before}${name}=${REDACTED}` : pair);
}

/**
 * Splits a request target (`/login?next=/a&token=x`) into its path and its query parameters,
 * so a secret in the query string is masked like any other parameter and never stays in the
 * path. Parameter names and values are percent-decoded as a server would; a repeated name keeps
 * its first value.
 */
export function splitTarget(target: string): { path: string; query?: Record<string, string> } {
  const at = target.indexOf('?');
  if (at < 0) return { path: target };
  const query: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const pair of target.slice(at + 1).split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = decode(equals < 0 ? pair : pair.slice(0, equals));
    if (!Object.prototype.hasOwnProperty.call(query, name)) query[name] = equals < 0 ? '' : decode(pair.slice(equals + 1));
  }
  return { path: target.slice(0, at), query };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
