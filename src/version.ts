// The tool's version, sent as User-Agent and recorded in snapshots. Kept in step with
// package.json by a test.
export const VERSION = '0.1.0';
