// Redaction on read (docs/replay.md, "Secrets in logs"): a log line's cookies, credentials and
// parameters whose names look like secrets are masked before the request is evaluated, counted
// or printed, so no later step (an example request, a JSON report, a debug line) can leak one.
// Masking keeps the name, so `$exists`/`$notExists` still decide as they would on the original.
import type { TestRequest } from '../evaluate/request.js';

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
 * `x-api-key`, `access_token`, `sessionid`, `X-Amz-Signature`, `password`, `client_secret`,
 * `SAMLResponse`, `client_assertion`, `auth_code`, `user_pin`.
 */
const SECRET_NAME = /token|secret|passw(?:or)?d|pwd|passcode|api[-_]?key|(?:^|[-_.])key$|session|sess[-_]?id|auth|signature|sig$|credential|jwt|bearer|csrf|xsrf|cookie|assertion|saml|ticket|(?:^|[-_.])(?:code|pin|otp|pass|pw)$/i;

/**
 * Names that carry a credential whole, compared exactly (ignoring case). Taken from the IANA
 * "OAuth Parameters" registry (https://www.iana.org/assignments/oauth-parameters: RFC 6749
 * `code`, `password`, `refresh_token`; RFC 7521 `assertion`, `client_assertion`; RFC 7636
 * `code_verifier`; RFC 8628 `device_code`, `user_code`; RFC 8693 `subject_token`,
 * `actor_token`; OpenID Connect `id_token`), the SAML 2.0 HTTP bindings (`SAMLResponse`,
 * `SAMLRequest`, `SAMLart`), CAS (`ticket`), and the short names forms use for the same
 * (`pass`, `pw`, `pin`, `otp`, `totp`, `mfa`); most are also matched by SECRET_NAME.
 */
const SECRET_EXACT: ReadonlySet<string> = new Set([
  'code', 'password', 'refresh_token', 'access_token', 'id_token', 'assertion', 'client_assertion', 'client_secret',
  'code_verifier', 'device_code', 'user_code', 'subject_token', 'actor_token', 'samlresponse', 'samlrequest', 'samlart',
  'ticket', 'pass', 'pw', 'pin', 'otp', 'totp', 'mfa', 'mfa_code', 'vp_token',
]);

/** Whether a header, query or custom parameter of this name is masked by the built-in list (percent-encoded names decoded first). */
export function isSecretName(name: string): boolean {
  const decoded = name.includes('%') ? decode(name) : name;
  const lower = decoded.toLowerCase();
  return SECRET_HEADERS.has(lower) || SECRET_EXACT.has(lower) || SECRET_NAME.test(decoded);
}

/**
 * The test of secret names with the project's own added (botrules.yaml `replay.secretNames`):
 * each is a header, query or custom parameter name, compared ignoring case.
 */
export function secretNameTest(configured: readonly string[] = []): (name: string) => boolean {
  if (configured.length === 0) return isSecretName;
  const names = new Set(configured.map((name) => name.toLowerCase()));
  return (name) => names.has((name.includes('%') ? decode(name) : name).toLowerCase()) || isSecretName(name);
}

/** The request with every secret value masked (in place, and returned for chaining). */
export function redactRequest(request: TestRequest, isSecret: (name: string) => boolean = isSecretName): TestRequest {
  if (request.headers !== undefined) maskSecrets(request.headers, isSecret);
  if (request.query !== undefined) maskSecrets(request.query, isSecret);
  if (request.custom !== undefined) maskSecrets(request.custom, isSecret);
  if (request.userAgent !== undefined) request.userAgent = maskValue(request.userAgent, isSecret);
  if (request.path !== undefined) request.path = maskValue(request.path, isSecret);
  return request;
}

/** Secret-named entries masked whole; the others keep their text with embedded secrets masked. */
function maskSecrets(record: Record<string, string>, isSecret: (name: string) => boolean): void {
  for (const name of Object.keys(record)) {
    record[name] = isSecret(name) ? REDACTED : maskValue(record[name] ?? '', isSecret);
  }
}

/** A value with its embedded secrets masked; masked whole when only its percent-decoded form shows one. */
function maskValue(text: string, isSecret: (name: string) => boolean): string {
  const masked = maskCredentialsInText(text, isSecret);
  if (masked !== text || !text.includes('%')) return masked;
  return hidesSecret(text, isSecret, 0) ? REDACTED : masked;
}

/** How deep percent-encoded values are decoded to look for secrets inside them (`?next=%2Fcb%3Fid_token%3D…`). */
const NESTING = 3;

/**
 * Secrets written into free text: `user:password@` in a URL, `Bearer …`/`Basic …`
 * credentials (to the next space, comma or quote: `Bearer abc%3Adef` whole), and `name=value`
 * pairs with a secret name after any character that cannot be in a name (`?`, `&`, `;`, `#`
 * of a fragment's `#access_token=`, a space, a bracket); names are compared decoded (`%74oken=`), and a value that is percent-encoded is looked
 * into decoded (a redirect URL carrying `id_token`), masked whole when it holds a secret.
 */
function maskCredentialsInText(text: string, isSecret: (name: string) => boolean, depth = 0): string {
  // Most values hold none of the shapes: checked once, without the replacements.
  if (!text.includes('=') && !text.includes('@') && !CREDENTIAL_WORD.test(text)) return text;
  return text
    .replace(/\b(Bearer|Basic|Token)\s+[^\s,;"']+/gi, `$1 ${REDACTED}`)
    .replace(/(\/\/)[^/@\s:]+:[^/@\s]+@/g, `$1${REDACTED}@`)
    .replace(/([^\w%.~[\]-]|^)([\w%.~[\]-]+)=([^&;,#\s]*)/g, (pair, before: string, name: string, value: string) => {
      if (isSecret(name)) return `${before}${name}=${REDACTED}`;
      return hidesSecret(value, isSecret, depth) ? `${before}${name}=${REDACTED}` : pair;
    });
}

/** Whether a value, percent-decoded, holds a secret (looked into up to NESTING levels). */
function hidesSecret(value: string, isSecret: (name: string) => boolean, depth: number): boolean {
  if (depth >= NESTING || !value.includes('%')) return false;
  const decoded = decode(value);
  return decoded !== value && maskCredentialsInText(decoded, isSecret, depth + 1) !== decoded;
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

/**
 * A URL (`https://host:443/a?b=1`, or a request target `/a?b=1`) as the domain, path and query
 * parameters the service reads; the fragment is not sent and is dropped.
 */
export function splitUrl(url: string): { domain?: string; path: string; query?: Record<string, string> } {
  const match = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)(?::\d*)?(.*)$/i.exec(url);
  const target = (match === null ? url : match[2] || '/').replace(/#.*$/s, '');
  const host = match?.[1];
  return { ...(host === undefined || host === '' ? {} : { domain: host.toLowerCase() }), ...splitTarget(target.startsWith('?') ? `/${target}` : target) };
}

/** Percent-decoding as a server does it ('+' is a space only in a query string: callers choose). */
export function percentDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
