// The replay report as JSON: exact data (secrets were masked on read), terminal-safe escapes.
import type { ReplayReport } from '../../replay/tally.js';
import type { RenderOptions, Sink } from '../contract.js';
import { safeJson } from '../sanitise.js';

/** Bumped when a field changes meaning or goes away; new fields do not bump it. */
const REPLAY_JSON_VERSION = 1;

export function renderReplayJson(report: ReplayReport, sink: Sink, _options: RenderOptions): void {
  sink.write(`${safeJson(JSON.stringify({ formatVersion: REPLAY_JSON_VERSION, ...report }, null, 2))}\n`);
}
