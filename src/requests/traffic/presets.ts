// Presets: the log formats users have (docs/replay.md, "Log formats"), each a map onto the
// request fields. This module tells a preset from the keys of a line that mapped to nothing.

/** A key each JSON preset's lines carry, that no other format uses. */
const PRESET_KEYS: readonly (readonly [string, string])[] = [
  ['ClientRequestPath', 'cloudflare'], ['ClientRequestURI', 'cloudflare'], ['ClientIP', 'cloudflare'],
  ['px_app_id', 'human'], ['true_ip', 'human'], ['http_method', 'human'],
  ['cs-uri-stem', 'cloudfront'], ['log', 'har'],
];

/** The preset whose keys a line carries, if one does. */
export function presetForKeys(keys: readonly string[]): string | undefined {
  return PRESET_KEYS.find(([key]) => keys.includes(key))?.[1];
}
