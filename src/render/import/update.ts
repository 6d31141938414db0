// What `botrules import --update` says (docs/behaviour.md, "import --update"): per app, what
// changed in its rule files and, for a dry run, the change itself; a unified diff per file
// (`--format diff`, the default) or one JSON document holding each file's RFC 6902 operations
// (`--format json-patch`, whose summary then goes to stderr, so stdout stays the document).
import { createTwoFilesPatch } from 'diff';
import { plural } from '../../plural.js';
import { writeLines, type OutputRegistry } from '../contract.js';
import { safeJson, safeText } from '../sanitise.js';

/** The dry run's formats, the `--format` choices. */
export const UPDATE_FORMATS = ['diff', 'json-patch'] as const;

/** One file's change (src/import/update's FileChange fits). */
interface FileChangeView {
  rel: string;
  before: string | undefined;
  after: string | undefined;
  operations: readonly unknown[];
}

/** What the update did to one app's rule files (src/import/update's UpdateResult fits). */
interface UpdateResultView {
  gone: readonly { name: string; source: { file: string } }[];
  edited: readonly { rule: { name: string; ruleId: string }; fields: readonly string[] }[];
  placements: readonly { kind: string; rel: string; createdFile: boolean; rule: { name: string } }[];
  changes: readonly FileChangeView[];
}

export interface AppUpdateView {
  app: string;
  dir: string;
  result: UpdateResultView;
  dryRun: boolean;
  prune: boolean;
  /** import --update --pin: only ruleIds were written. */
  pin: boolean;
}

/** An app's files were updated (or would be), or every app is done. */
type UpdateEvent = { kind: 'app'; update: AppUpdateView } | { kind: 'done'; updates: readonly AppUpdateView[] };

/** Without --dry-run the summary alone; with it, the formats of UPDATE_FORMATS. */
export const UPDATE_OUTPUTS = {
  summary: {
    stdout: (event, sink) => (event.kind === 'app' ? writeLines(sink, summaryLines(event.update)) : undefined),
  },
  diff: {
    stdout: async (event, sink) => {
      if (event.kind === 'done') return;
      await sink.write(unifiedDiff(event.update));
      await writeLines(sink, summaryLines(event.update));
    },
  },
  'json-patch': {
    // Names and values come from live rules: characters that move a terminal's text are escaped (docs/security.md).
    stdout: async (event, sink) => {
      if (event.kind === 'done') await sink.write(`${safeJson(JSON.stringify({ files: event.updates.flatMap(patchesOf) }, null, 2))}\n`);
    },
    stderr: (event, sink) => (event.kind === 'app' ? writeLines(sink, summaryLines(event.update)) : undefined),
  },
} as const satisfies OutputRegistry<UpdateEvent>;

function patchesOf({ app, dir, result }: AppUpdateView) {
  return result.changes.map((change) => ({
    app,
    file: `${dir}/${change.rel}`,
    change: change.before === undefined ? 'create' : change.after === undefined ? 'delete' : 'edit',
    operations: change.operations,
  }));
}

function unifiedDiff({ dir, result }: AppUpdateView): string {
  return result.changes.map((change) => {
    const name = `${dir}/${change.rel}`;
    const patch = createTwoFilesPatch(change.before === undefined ? '/dev/null' : `a/${name}`, change.after === undefined ? '/dev/null' : `b/${name}`, change.before ?? '', change.after ?? '', undefined, undefined, { context: 3 });
    // File contents and names come from live rules: each line made safe (docs/security.md). A CRLF
    // file's CR ends every line and stays the file's own (src/import/update/text.ts): shown, it would be noise.
    return patch.split('\n').slice(1).map((line) => safeText(line.replace(/\r$/, ''))).join('\n');
  }).join('');
}

function summaryLines({ app, dir, result, dryRun, prune, pin }: AppUpdateView): string[] {
  const lines: string[] = [];
  for (const rule of result.gone) {
    if (dryRun && !prune) lines.push(`would remove rule "${rule.name}" from ${rule.source.file} (gone live; writing this needs --prune)`);
    else lines.push(`removed rule "${rule.name}" from ${rule.source.file} (gone live)`);
  }
  for (const { rule, fields } of result.edited) lines.push(pin ? `pinned rule "${rule.name}" to ruleId ${rule.ruleId}` : `updated rule "${rule.name}" (${fields.join(', ')})`);
  for (const p of result.placements) {
    const where = `${dir}/${p.rel}`;
    lines.push(`${p.kind} rule "${p.rule.name}" ${p.createdFile ? `in a new file ${where}` : `in ${where}`}`);
  }
  const files = result.changes.length;
  if (files === 0) lines.push(`App ${app}: the rule files in ${dir} already declare the live rules.`);
  else lines.push(`App ${app}: ${dryRun ? 'would change' : 'changed'} ${plural(files, 'file')} in ${dir}.${dryRun ? ' (dry run: nothing written)' : ` Run botrules plan to check: ${pin ? 'it shows the changes left to make' : 'it should show no changes'}.`}`);
  return lines.map((line) => safeText(line));
}
