// Replay renderers by format name (`replay --format NAME`), registered like the plan's.
import type { ReplayReport } from '../../replay/tally.js';
import { formatNames, type OutputRegistry, type StreamRenderers } from '../contract.js';
import { renderReplayJson } from './json.js';
import { renderReplayMarkdown } from './markdown.js';
import { renderReplayText } from './text.js';

export const REPLAY_OUTPUTS = {
  text: { stdout: renderReplayText },
  json: { stdout: renderReplayJson },
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
