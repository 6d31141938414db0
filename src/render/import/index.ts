// What `botrules import` says: a line per app as soon as its files are written, then one
// sentence when every app is done. Names and directories come from live rules and the
// config, so they are made safe (docs/security.md, "Untrusted text").
import { plural } from '../../plural.js';
import { writeLines, type StreamRenderers } from '../contract.js';
import { safeText } from '../sanitise.js';

/** One app imported, as src/engine/import.ts reports it. */
export interface ImportedApp {
  app: string;
  /** The directory written, as shown to the user. */
  dir: string;
  rules: number;
  files: number;
  /** Rule files removed first (with force). */
  replaced: number;
}

/** An app's files were written, or every app is done. */
type ImportEvent = { kind: 'app'; imported: ImportedApp } | { kind: 'done' };

function importLines(event: ImportEvent): string[] {
  if (event.kind === 'done') return ['Run botrules plan to check: it should show no changes.'];
  const { imported } = event;
  const replaced = imported.replaced > 0 ? ` (replacing ${plural(imported.replaced, 'old rule file')})` : '';
  return [`Imported ${plural(imported.rules, 'rule')} of app ${safeText(imported.app)} into ${safeText(imported.dir)} as ${plural(imported.files, 'file')}${replaced}.`];
}

export const IMPORT_OUTPUT: StreamRenderers<ImportEvent> = {
  stdout: (event, sink) => writeLines(sink, importLines(event)),
};
