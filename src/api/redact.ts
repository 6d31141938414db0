// Masks a token in text that came from a server before botrules shows it. A server may echo
// the Authorization header whole, cut, lower-cased, URL-encoded or base64-encoded; GitHub's
// log masking hides only the whole secret, so every one of those forms is masked here, and
// so is any run of eight or more of a form's characters, wherever in the form it starts
// (docs/security.md, "Redaction"). Only text from a server is redacted, never botrules' own
// sentences: a token that starts with a common word cannot mask that word in a message.

/** What replaces a secret (and the credential after `Bearer` or `Basic`). */
const MASK = '***';

/** Shortest run of a secret's characters (a prefix, a middle or a suffix) that counts as a leak. */
const MIN_LEAK_LENGTH = 8;

/** Shortest secret masked at all when it appears whole. */
const MIN_SECRET_LENGTH = 4;

/**
 * An HTTP credential quoted by a server: `Bearer abc…`, `basic dXNlcjpw…` (a mask already in
 * it included, so the whole credential becomes one mask). The word after the scheme is not
 * taken for a credential when it is itself a scheme name ("basic Basic dXNl…").
 */
const QUOTED_CREDENTIAL = /\b(bearer|basic)(\s+|%20|\+)(?!(?:bearer|basic)\b)[A-Za-z0-9._~+/=%*-]+/gi;

export type Redactor = (text: string) => string;

/**
 * A redactor for these secrets. Each secret is matched in its plain, URL-encoded and base64
 * forms (at the three byte alignments base64 can start at), ignoring ASCII letter case: a
 * whole form is masked, and so is any run of text made of pieces of `MIN_LEAK_LENGTH`
 * characters of a form (a prefix, a suffix, a middle), so text cut anywhere keeps nothing
 * of the token that could narrow it down.
 */
export function createRedactor(secrets: readonly string[]): Redactor {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    for (const form of base64Forms(secret)) forms.add(form);
  }
  const usable = [...forms].filter((form) => form.length >= MIN_SECRET_LENGTH);
  // Longest first, so a full form wins over a shorter one that starts the same way.
  usable.sort((a, b) => b.length - a.length);
  const whole = usable.length === 0 ? undefined : new RegExp(usable.map(escapeRegExp).join('|'), 'gi');
  const pieces = new Set(usable.flatMap((form) => windowsOf(asciiLower(form))));
  return (text) => {
    const masked = maskPieces(whole ? text.replace(whole, MASK) : text, pieces);
    return masked.replace(QUOTED_CREDENTIAL, (_whole, scheme: string, space: string) => `${scheme}${space}${MASK}`);
  };
}

/** Every run of `MIN_LEAK_LENGTH` characters of `form`. */
function windowsOf(form: string): string[] {
  return Array.from({ length: Math.max(0, form.length - MIN_LEAK_LENGTH + 1) }, (_, i) => form.slice(i, i + MIN_LEAK_LENGTH));
}

/** Lower case for ASCII letters only, so positions in the text stay where they were. */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (char) => char.toLowerCase());
}

/** `text` with every stretch covered by pieces of a secret replaced by one mask. */
function maskPieces(text: string, pieces: ReadonlySet<string>): string {
  if (pieces.size === 0 || text.length < MIN_LEAK_LENGTH) return text;
  const lower = asciiLower(text);
  // Stretches [start, end) where overlapping or touching pieces follow one another.
  const stretches: [number, number][] = [];
  for (let i = 0; i + MIN_LEAK_LENGTH <= text.length; i++) {
    if (!pieces.has(lower.slice(i, i + MIN_LEAK_LENGTH))) continue;
    const last = stretches.at(-1);
    if (last && i <= last[1]) last[1] = i + MIN_LEAK_LENGTH;
    else stretches.push([i, i + MIN_LEAK_LENGTH]);
  }
  let out = '';
  let copied = 0;
  for (const [start, end] of stretches) {
    out += `${text.slice(copied, start)}${MASK}`;
    copied = end;
  }
  return out + text.slice(copied);
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
