// Offsets, lines and indentation in the source text of a rule file, and the text edits the
// interpreter (interpret.ts) makes at the ranges the `yaml` parser reports, so everything no
// operation touches stays byte for byte (docs/behaviour.md, "import --update"). The text is
// the file as read: a CRLF line's CR is part of the line and counts as white space.

/** Offset of the start of the line that holds `offset`. */
export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Offset just past the newline that ends the line holding `offset` (or the text's end). */
function lineEnd(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  return newline === -1 ? text.length : newline + 1;
}

/** Column of `offset` within its line. */
export function columnOf(text: string, offset: number): number {
  return offset - lineStart(text, offset);
}

/** Offset just past the last non-blank character before `end`: where a node's content stops. */
export function contentEnd(text: string, end: number): number {
  let at = end;
  while (at > 0 && /\s/.test(text[at - 1] as string)) at -= 1;
  return at;
}

/** Offset just past the line on which the content before `end` stops (its end-of-line comment included). */
export function lineAfter(text: string, end: number): number {
  return lineEnd(text, Math.max(0, contentEnd(text, end) - 1));
}

/** Width of a line's leading spaces. */
export function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** Lines of `text`, each keeping its newline. */
export function linesOf(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Shifts every non-blank line of `text` right (`by` > 0) or left (`by` < 0) by `by` columns. */
export function reindent(text: string, by: number): string {
  if (by === 0) return text;
  return linesOf(text)
    .map((line) => {
      if (line.trim() === '') return line;
      if (by > 0) return ' '.repeat(by) + line;
      return line.slice(Math.min(-by, indentOf(line)));
    })
    .join('');
}

/** "\r\n" when every line of `text` ends with CRLF, else "\n" (a file of mixed endings keeps its CRs as they are). */
export function lineEndingOf(text: string): '\n' | '\r\n' {
  const newlines = text.match(/\n/g)?.length ?? 0;
  return newlines > 0 && (text.match(/\r\n/g)?.length ?? 0) === newlines ? '\r\n' : '\n';
}

/** Text written with "\n" (or taken from a file of either ending) in the line ending `eol`. */
export function withLineEnding(text: string, eol: '\n' | '\r\n'): string {
  const lf = text.replace(/\r\n/g, '\n');
  return eol === '\n' ? lf : lf.replace(/\n/g, eol);
}

/**
 * A replacement of `text.slice(start, end)`; an insertion has start === end. Its text may be
 * worked out only when the edits are applied (a node's final form). `region` marks an edit
 * that stands for a whole node: `replace` (written afresh from the node, so edits inside it
 * are void) or `remove` (cut out; edits inside it still make the text it carries elsewhere).
 */
export interface TextEdit {
  start: number;
  end: number;
  text: string | (() => string);
  region?: 'replace' | 'remove';
  /** Nesting depth; at one offset deeper insertions come first (they end the node before it). */
  depth: number;
}

/**
 * True when `edit` lies inside the region `outer`. An insertion at the region's start does not;
 * one at its end does when it is deeper (it ends a node inside the region), not when it is a
 * sibling placed after the region.
 */
function isInside(edit: TextEdit, outer: { start: number; end: number; depth?: number }): boolean {
  if (edit.start === edit.end) return outer.start < edit.start && (edit.start < outer.end || (edit.start === outer.end && edit.depth > (outer.depth ?? -1)));
  return outer.start <= edit.start && edit.end <= outer.end && (edit.start !== outer.start || edit.end !== outer.end);
}

/** `text.slice(start, end)` with the outermost of `edits` inside it applied. */
export function editedSlice(text: string, edits: readonly TextEdit[], start: number, end: number, self?: TextEdit): string {
  const within = edits.filter((edit) => edit !== self && (self === undefined || isInside(edit, self)));
  const outermost = within.filter((edit) => !within.some((outer) => outer !== edit && outer.region !== undefined && isInside(edit, outer)));
  const ordered = outermost
    .map((edit, index) => ({ edit, index }))
    .sort((a, b) => a.edit.start - b.edit.start || zeroFirst(a.edit, b.edit) || b.edit.depth - a.edit.depth || a.index - b.index);
  let out = '';
  let at = start;
  for (const { edit } of ordered) {
    if (edit.start < at) throw new Error(`import --update: overlapping edits at offset ${edit.start}`);
    out += text.slice(at, edit.start) + (typeof edit.text === 'string' ? edit.text : edit.text());
    at = edit.end;
  }
  return out + text.slice(at, end);
}

function zeroFirst(a: TextEdit, b: TextEdit): number {
  return Number(a.end !== a.start) - Number(b.end !== b.start);
}
