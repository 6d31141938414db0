// The one place that makes untrusted text safe to print. Rule names, ids, file names, script
// fields and server error text come from people botrules does not trust (docs/security.md,
// "Untrusted text"), so every renderer passes them through one of these functions at render
// time: the data itself stays exact (JSON output and files keep it as it is).

/**
 * Characters that do not show, or show as something they are not: the format characters
 * (Unicode category Cf: the bidi marks, embeddings, overrides and isolates, zero-width space,
 * non-joiner and joiner, word joiner and the invisible operators U+2060–U+2064, the byte-order
 * mark, the soft hyphen, …) and the tag block U+E0000–U+E007F. Raw, `"/\u2060admin"` and
 * `/admin` would print as the same text although a rule matches only one of them.
 */
const INVISIBLE = '\\p{Cf}\\u{E0000}-\\u{E007F}';

/**
 * Characters that move a terminal, split a line, reorder text or do not show: C0 controls
 * (tab, CR and LF included), DEL, C1 controls, the Unicode line and paragraph separators, and
 * the invisible and format characters above.
 */
const UNSAFE = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029${INVISIBLE}]`, 'gu');

/** The invisible, reordering and line-breaking characters that YAML and JSON writers leave raw. */
const RAW_IN_QUOTES = new RegExp(`[\\u007f-\\u009f\\u2028\\u2029${INVISIBLE}]`, 'gu');

const SHORT_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function visibleEscape(char: string): string {
  const short = SHORT_ESCAPES[char];
  if (short !== undefined) return short;
  const code = char.codePointAt(0) as number;
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** True when `text` holds a character that YAML or JSON would write raw yet does not show as itself. */
export function hasInvisibleCharacter(text: string): boolean {
  RAW_IN_QUOTES.lastIndex = 0;
  return RAW_IN_QUOTES.test(text);
}

/**
 * The text of a YAML double-quoted scalar with every invisible, reordering or line-breaking
 * character the writer left raw as an escape (`\u2060`, `\U000e0041`): it reads back as the
 * same string, and an editor or a diff shows it.
 */
export function yamlQuotedEscapes(quoted: string): string {
  return quoted.replace(RAW_IN_QUOTES, (char) => {
    const code = char.codePointAt(0) as number;
    return code > 0xffff ? `\\U${code.toString(16).padStart(8, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/**
 * Untrusted text for a terminal or a log line: every unsafe character becomes a visible
 * escape (`\x1b`, `\n`, `\u202e`), so the text stays on one line and cannot move the cursor,
 * set a window title, open a link or reorder what follows it.
 */
export function safeText(text: string): string {
  return text.replace(UNSAFE, visibleEscape);
}

/** Line breaks of any kind, collapsed to one space in Markdown and HTML. */
export const LINE_BREAKS = /(?:\r\n|[\r\n\u2028\u2029\u0085])+/g;

/**
 * Text GitHub turns into a link, a mention or a cross-reference: URLs (`https://…`, `www.…`),
 * e-mail addresses and `@user`, `@org/team`, `user@sha` mentions, issue references (`#123`,
 * `org/repo#1`, `GH-12`) and commit SHAs (7 to 40 hex digits, letters and digits both). GitHub
 * finds the references in the rendered HTML's text, skipping `code`, `pre` and `a` elements
 * (html-pipeline's IGNORE_PARENTS): a backslash escape would not stop them, a code span does.
 */
const REFERENCE = new RegExp(
  [
    String.raw`(?:[a-z][a-z0-9+.-]*://|www\.)[^\s<>|` + '`]*',
    String.raw`[\w.+-]*@[\w-][\w./-]*`,
    String.raw`(?:[\w.-]+(?:/[\w.-]+)?)?#\d+`,
    String.raw`\bGH-\d+`,
    String.raw`\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b`,
  ].join('|'),
  'gi',
);

/**
 * GitHub renders `$…$` and `$$…$$` as mathematics; its documentation's way to show a dollar
 * sign as itself is `<span>$</span>`.
 */
function neutraliseMath(text: string): string {
  return text.replace(/\$/g, '<span>$</span>');
}

/**
 * `text` in pieces: references, which `asReference` shows unlinked, and the rest, which
 * `asText` escapes. Nobody is notified, nothing links anywhere, and the text reads the same.
 * Each piece between two references becomes a text node of its own in the HTML, where its
 * ends are word boundaries (`…fd2e` before a code span is a whole SHA there), so it is
 * searched again on its own.
 */
function withReferences(text: string, asText: (part: string, first: boolean) => string, asReference: (reference: string) => string, first = true): string {
  let out = '';
  let from = 0;
  const piece = (part: string, isFirst: boolean) => (part === text ? asText(part, isFirst) : withReferences(part, asText, asReference, isFirst));
  // References that touch are shown as one: two code spans side by side would read as one
  // opened with a double backtick.
  let run = '';
  for (const match of text.matchAll(REFERENCE)) {
    const gap = text.slice(from, match.index);
    if (gap !== '' || run === '') {
      if (run !== '') out += asReference(run);
      out += piece(gap, first && from === 0);
      run = '';
    }
    run += match[0];
    from = match.index + match[0].length;
  }
  if (run !== '') out += asReference(run);
  return out + piece(text.slice(from), first && from === 0);
}

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtmlCharacters(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ENTITIES[char] ?? char);
}

/**
 * Untrusted text inside HTML in Markdown (`<summary>`, `<code>`, `<b>`): one line, HTML
 * escaped, references in `<code>`, no mathematics. Markdown is not read inside an HTML block
 * on that line, so no backslash escapes are needed (they would show).
 */
export function markdownHtml(text: string): string {
  return withReferences(
    safeText(text.replace(LINE_BREAKS, ' ')),
    (part) => neutraliseMath(escapeHtmlCharacters(part)),
    (reference) => `<code>${escapeHtmlCharacters(reference)}</code>`,
  );
}

/**
 * Untrusted text for the inside of an HTML `<code>` element in Markdown: one line, HTML escaped.
 * GitHub links no reference and renders no mathematics inside code, so nothing more is needed
 * (wrapping references in a second `<code>` would nest code in code).
 */
export function markdownCodeHtml(text: string): string {
  return escapeHtmlCharacters(safeText(text.replace(LINE_BREAKS, ' ')));
}

/**
 * Untrusted text in Markdown prose or a table cell: one line, HTML escaped, every character
 * that could start emphasis, code, a link, an image or a table column escaped with a
 * backslash, a leading heading, list or quote marker too, references in code spans (their
 * characters exclude backticks and `|`), and no mathematics.
 */
export function markdownText(text: string): string {
  return withReferences(safeText(text.replace(LINE_BREAKS, ' ')), markdownPart, (reference) => `\`${reference}\``);
}

function markdownPart(part: string, first: boolean): string {
  let escaped = part.replace(/[\\`*_[\]|~]/g, '\\$&');
  if (first) escaped = escaped.replace(/^(\s*)([#+\-=])/, '$1\\$2').replace(/^(\s*\d+)([.)])(?=\s|$)/, '$1\\$2');
  return neutraliseMath(escapeHtmlCharacters(escaped));
}

/**
 * JSON text with every character that could move, reorder or hide in a terminal's text
 * written as a `\u` escape (a tag character as its surrogate pair). They only occur inside
 * strings, so the JSON reads back as exactly the same data.
 */
export function safeJson(json: string): string {
  return json.replace(RAW_IN_QUOTES, (char) => [...Array(char.length).keys()].map((i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''));
}

/** Cells that a spreadsheet would read as a formula (OWASP "CSV Injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A CSV cell value. With `formulaEscape` (the default of `scripts report --format csv`), a
 * cell starting with `=`, `+`, `-`, `@`, tab or CR gets a leading `'`, as OWASP recommends,
 * so a spreadsheet shows it as text instead of running it. Quoting stays with csv-stringify.
 * On a terminal the cell is also made safe (`safeText`); in a file or a pipe it stays exact.
 */
export function csvCell(text: string, formulaEscape: boolean, terminal = false): string {
  const cell = formulaEscape && FORMULA_START.test(text) ? `'${text}` : text;
  return terminal ? safeText(cell) : cell;
}

/**
 * Data of a GitHub workflow command (the message after `::`): `%`, CR and LF escaped the way
 * the runner unescapes them, then unsafe characters made visible.
 */
export function workflowCommandData(text: string): string {
  return safeText(text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
}

/** A workflow command property value (`file=…`): as data, plus `:` and `,` escaped. */
export function workflowCommandProperty(text: string): string {
  return workflowCommandData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
