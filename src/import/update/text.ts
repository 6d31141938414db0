// Offsets, lines and indentation in the source text of a rule file. `import --update` edits
// files as text, at the ranges the `yaml` parser reports, so everything it does not change
// stays byte for byte (docs/behaviour.md, "import --update").

/** Offset of the start of the line that holds `offset`. */
export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Offset just past the newline that ends the line holding `offset` (or the text's end). */
export function lineEnd(text: string, offset: number): number {
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

/** Width of a line's leading spaces. */
export function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** True for a line that holds nothing but a comment or white space. */
export function isBlankOrComment(line: string): boolean {
  const trimmed = line.trim();
  return trimmed === '' || trimmed.startsWith('#');
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

/** A replacement of `text.slice(start, end)`; an insertion has start === end. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** Applies non-overlapping edits; at one offset, edits apply in the order given. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const ordered = edits.map((edit, index) => ({ edit, index })).sort((a, b) => a.edit.start - b.edit.start || a.index - b.index);
  let out = '';
  let at = 0;
  for (const { edit } of ordered) {
    if (edit.start < at) throw new Error(`overlapping edits at offset ${edit.start}`);
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + text.slice(at);
}
