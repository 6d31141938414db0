// Replay renderers by format name (`replay --format NAME`), registered like the plan's.
import type { ReplayReport } from '../../requests/traffic/tally.js';
import type { Renderer, RendererRegistry, StreamRenderers } from '../contract.js';
import { renderReplayJson } from './json.js';
import { renderReplayMarkdown } from './markdown.js';
import { renderReplayText } from './text.js';

export const REPLAY_RENDERERS = {
  text: renderReplayText,
  json: renderReplayJson,
  markdown: renderReplayMarkdown,
} as const satisfies RendererRegistry<ReplayReport>;

export const REPLAY_FORMATS = ['text', 'json', 'markdown'] as const;
export type ReplayFormat = (typeof REPLAY_FORMATS)[number];

export function replayRenderer(format: ReplayFormat): Renderer<ReplayReport> {
  return REPLAY_RENDERERS[format];
}

/** `plan --replay`: the replay's summary comes first, set off from the plan by a blank line. */
export function replayBeforePlan(format: 'text' | 'markdown'): StreamRenderers<ReplayReport> {
  return {
    stdout: async (report, sink, options) => {
      await REPLAY_RENDERERS[format](report, sink, options);
      await sink.write('\n');
    },
  };
}
