// Untrusted text in HTML and inline SVG (the evidence report). Script URLs, vendors, owners,
// commit authors and subjects come from people botrules does not trust: each is made one
// line with visible escapes for controls and bidi marks (the sanitiser), then every character
// HTML gives a meaning to is written as an entity. The same escaping is safe in element text
// and in a double- or single-quoted attribute value, so a value can never end an attribute,
// open an element or, inside SVG, start a script. Callers never put untrusted text in a
// URL-valued attribute (href, src) or a style.
import { LINE_BREAKS, safeText } from './sanitise.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

/** Untrusted text for HTML element content or a quoted attribute value. */
export function html(text: string | number | undefined): string {
  if (text === undefined) return '';
  return safeText(String(text).replace(LINE_BREAKS, ' ')).replace(/[&<>"'`]/g, (char) => ENTITIES[char] ?? char);
}

/** A tag with text content: `el('td', value, 'risk')`. The class name is the caller's own constant. */
export function el(tag: string, text: string | number | undefined, className?: string): string {
  return `<${tag}${className ? ` class="${className}"` : ''}>${html(text)}</${tag}>`;
}

/** A number for an SVG coordinate: finite, two decimals at most. */
export function coord(value: number): string {
  return Number.isFinite(value) ? String(Math.round(value * 100) / 100) : '0';
}

/** After a run of URL separators: the places a script location may wrap. */
const URL_BREAK = /(?<=[/?&#=])(?![/?&#=])/;
/** Past this many characters, a part of a URL may also wrap after `.`, `-` or `_`. */
const LONG_PART = 32;
const LONG_PART_BREAK = /(?<=[._-])(?![._-])/;

/**
 * Untrusted URL-like text (a script location, a file path) for element content, with `<wbr>`
 * after its separators: a narrow column wraps it between path segments and query parameters,
 * never inside one, so every token stays whole and copyable (`<wbr>` adds no character).
 * Only a part longer than LONG_PART characters also wraps after `.`, `-` or `_`.
 */
export function breakableUrl(text: string | undefined): string {
  if (text === undefined) return '';
  return text
    .split(URL_BREAK)
    .flatMap((part) => (part.length > LONG_PART ? part.split(LONG_PART_BREAK) : [part]))
    .map((part) => html(part))
    .join('<wbr>');
}
