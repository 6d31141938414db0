// Masks a token in text that came from a server before botrules shows it. A server may echo
// the Authorization header whole, cut, lower-cased, URL-encoded or base64-encoded; GitHub's
// log masking hides only the whole secret, so every one of those forms is masked here, and
// so is any run of four or more of the token's first characters (docs/security.md,
// "Redaction").

/** What replaces a secret (and the credential after `Bearer` or `Basic`). */
export const MASK = '***';

/** Shortest run of a secret's first characters that counts as a leak. */
export const MIN_LEAK_LENGTH = 4;

/**
 * An HTTP credential quoted by a server: `Bearer abc…`, `basic dXNlcjpw…` (a mask already in
 * it included, so the whole credential becomes one mask). The word after the scheme is not
 * taken for a credential when it is itself a scheme name ("basic Basic dXNl…").
 */
const QUOTED_CREDENTIAL = /\b(bearer|basic)(\s+|%20|\+)(?!(?:bearer|basic)\b)[A-Za-z0-9._~+/=%*-]+/gi;

export type Redactor = (text: string) => string;

/**
 * A redactor for these secrets. Each secret is matched in its plain, URL-encoded and base64
 * forms (at the three byte alignments base64 can start at), case-insensitively, and any
 * prefix of four characters or more of a form counts: text cut in the middle of a token
 * keeps nothing of it.
 */
export function createRedactor(secrets: readonly string[]): Redactor {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    for (const form of base64Forms(secret)) forms.add(form);
  }
  const usable = [...forms].filter((form) => form.length >= MIN_LEAK_LENGTH);
  // Longest first, so a full form wins over a shorter one that starts the same way.
  usable.sort((a, b) => b.length - a.length);
  const pattern = usable.length === 0 ? undefined : new RegExp(usable.map(prefixPattern).join('|'), 'gi');
  return (text) => {
    const masked = pattern ? text.replace(pattern, MASK) : text;
    return masked.replace(QUOTED_CREDENTIAL, (_whole, scheme: string, space: string) => `${scheme}${space}${MASK}`);
  };
}

/**
 * `abcd(?:e(?:f)?)?` for "abcdef": the first four characters, then as many more of the
 * secret as follow. Nested optional groups match greedily without backtracking blow-up.
 */
function prefixPattern(form: string): string {
  const head = escapeRegExp(form.slice(0, MIN_LEAK_LENGTH));
  const rest = [...form.slice(MIN_LEAK_LENGTH)];
  return head + rest.reduceRight((inner, char) => `(?:${escapeRegExp(char)}${inner})?`, '');
}

/**
 * The characters of base64 text that depend only on the secret's bytes, when the secret
 * starts 0, 1 or 2 bytes into a base64 group (as it does inside `Basic user:token` or a
 * longer encoded header). Standard and URL-safe alphabets both.
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms: string[] = [];
  for (const shift of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const first = Math.ceil((shift * 8) / 6);
    const last = Math.floor(((shift + bytes.length) * 8) / 6);
    const stable = encoded.slice(first, last);
    forms.push(stable, stable.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/**
 * Shortens server text for a message without ever cutting a secret in half: masked before
 * the cut (so the cut cannot leave a partial secret that no longer matches) and again after.
 */
export function shortenRedacted(text: string, limit: number, redact: Redactor): string {
  const masked = redact(text);
  const short = masked.length > limit ? `${masked.slice(0, limit - 3)}...` : masked;
  return redact(short);
}
