// What `botrules live` writes (docs/behaviour.md, "Live snapshots"): the snapshot as JSON on
// stdout, or, when it was saved to a file, one line on stderr saying how to plan against it.
import { plural } from '../../plural.js';
import { writeLines, type StreamRenderers } from '../contract.js';
import { safeJson, safeText } from '../sanitise.js';

interface LiveSnapshotView {
  snapshot: { apps: readonly unknown[] };
  /** Rules across all apps. */
  rules: number;
  /** The file it was saved to; undefined when stdout is the snapshot. */
  out?: string;
}

export const LIVE_OUTPUT: StreamRenderers<LiveSnapshotView> = {
  // Names and values come from live rules: characters that move a terminal's text are escaped (docs/security.md).
  stdout: async (view, sink) => {
    if (view.out === undefined) await sink.write(`${safeJson(JSON.stringify(view.snapshot, null, 2))}\n`);
  },
  stderr: ({ snapshot, rules, out }, sink) => {
    if (out === undefined) return undefined;
    const shown = safeText(out);
    return writeLines(sink, [`Live snapshot of ${plural(snapshot.apps.length, 'app')} (${plural(rules, 'rule')}) saved to ${shown}; plan against it with: botrules plan --live ${shown}`]);
  },
};
