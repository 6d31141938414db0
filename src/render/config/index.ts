// What `botrules config` writes: the workflow matrix as one line of JSON (a value for
// $GITHUB_OUTPUT and fromJSON), or one line per app for people.
import { writeLines, type OutputRegistry } from '../contract.js';
import { safeJson, safeText } from '../sanitise.js';

/** One app as a workflow's per-app job reads it (docs/behaviour.md, "The workflow matrix"). */
export interface MatrixEntry {
  app: string;
  /** The environment variable botrules reads the app's token from. */
  tokenEnv: string;
  /** The GitHub environment holding the app's BOTRULES_TOKEN secret: production-<app>, or production for the one-app project. */
  environment: string;
  /** The app's rules directory, relative to the working directory, with "/" separators. */
  rulesDir: string;
}

// Names come from the config file: characters that move a terminal's text are escaped (docs/security.md).
export const CONFIG_OUTPUTS = {
  json: { stdout: (matrix, sink) => writeLines(sink, [safeJson(JSON.stringify(matrix))]) },
  text: {
    stdout: (matrix, sink) => writeLines(sink, matrix.map((entry) =>
      safeText(`${entry.app}: rules in ${entry.rulesDir}, token from ${entry.tokenEnv}, environment ${entry.environment}`))),
  },
} as const satisfies OutputRegistry<readonly MatrixEntry[]>;
