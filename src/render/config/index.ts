// What `botrules config` writes: the workflow matrix as one line of JSON (a value for
// $GITHUB_OUTPUT and fromJSON), or one line per app for people.
import type { MatrixEntry } from '../../engine/workflow-matrix.js';
import type { Sink } from '../contract.js';
import { writeLines } from '../lines.js';
import { safeJson, safeText } from '../sanitise.js';

// Names come from the config file: characters that move a terminal's text are escaped (docs/security.md).
export const CONFIG_OUTPUTS = {
  json: { stdout: (matrix: readonly MatrixEntry[], sink: Sink) => writeLines(sink, [safeJson(JSON.stringify(matrix))]) },
  text: {
    stdout: (matrix: readonly MatrixEntry[], sink: Sink) => writeLines(sink, matrix.map((entry) =>
      safeText(`${entry.app}: rules in ${entry.rulesDir}, token from ${entry.tokenEnv}, environment ${entry.environment}`))),
  },
};
