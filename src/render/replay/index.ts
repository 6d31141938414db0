// Replay renderers by format name (`replay --format NAME`), registered like the plan's, and
// what `replay --emit-sql` prints.
import type { ReplayReport } from '../../replay/tally.js';
import type { EmittedQuery } from '../../replay/sql/emit.js';
import { formatNames, type OutputRegistry, type StreamRenderers } from '../contract.js';
import { renderReplayMarkdown } from './markdown.js';
import { renderReplayText } from './text.js';
import { safeJson } from '../sanitise.js';

/** Bumped when a field of the JSON report changes meaning or goes away; new fields do not bump it. */
const REPLAY_JSON_VERSION = 1;

export const REPLAY_OUTPUTS = {
  text: { stdout: renderReplayText },
  // Exact data (secrets were masked on read), terminal-safe escapes.
  json: {
    stdout: (report, sink) => {
      sink.write(`${safeJson(JSON.stringify({ formatVersion: REPLAY_JSON_VERSION, ...report }, null, 2))}\n`);
    },
  },
  markdown: { stdout: renderReplayMarkdown },
} as const satisfies OutputRegistry<ReplayReport>;

export const REPLAY_FORMATS = formatNames(REPLAY_OUTPUTS);

/** `plan --replay`: the replay's summary comes first, set off from the plan by a blank line. */
export function replayBeforePlan(format: 'text' | 'markdown'): StreamRenderers<ReplayReport> {
  return {
    stdout: async (report, sink, options) => {
      await REPLAY_OUTPUTS[format].stdout(report, sink, options);
      await sink.write('\n');
    },
  };
}

/** `replay --emit-sql`: the query as the SQL emitter made it (its notes are comment lines at its top, free of line breaks), alone, so it can be piped into a client. */
export const replaySqlOutput: StreamRenderers<EmittedQuery> = {
  stdout: (query, sink) => {
    sink.write(query.sql);
  },
};
