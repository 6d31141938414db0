// A rule file's line endings and byte-order mark, which `import --update` keeps per file.
// The edits work on LF text without a BOM (every line they write ends with "\n"); the file's
// own style is put back when the text is written, so a file a Windows editor saved with CRLF
// gets CRLF on every line the update writes, never a bare LF among them.

export interface FileStyle {
  bom: boolean;
  /** True when every line of the file ends with CRLF. A file of mixed endings counts as LF and keeps its CRs as they are. */
  crlf: boolean;
}

const BOM = '\uFEFF';

export function styleOf(text: string): FileStyle {
  const bom = text.startsWith(BOM);
  const newlines = text.match(/\n/g)?.length ?? 0;
  const crlfs = text.match(/\r\n/g)?.length ?? 0;
  return { bom, crlf: newlines > 0 && crlfs === newlines };
}

/** The text the edits work on: without the BOM, and with LF endings when the file is all CRLF. */
export function workingText(text: string, style: FileStyle): string {
  const bare = style.bom ? text.slice(BOM.length) : text;
  return style.crlf ? bare.replace(/\r\n/g, '\n') : bare;
}

/** Working text back in the file's style. */
export function styledText(text: string, style: FileStyle): string {
  const endings = style.crlf ? text.replace(/\r?\n/g, '\r\n') : text;
  return style.bom ? BOM + endings : endings;
}

/** The style of a file the update creates: CRLF when every file of the app is CRLF, never a BOM. */
export function newFileStyle(styles: readonly FileStyle[]): FileStyle {
  return { bom: false, crlf: styles.length > 0 && styles.every((style) => style.crlf) };
}
