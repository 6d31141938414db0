// What the layers below src/cli/ get from the command that runs them: plain values and
// functions, never streams, yargs arguments or colours (docs/design.md, "Layering").

/** The environment of one run. A command builds it from its own streams and environment. */
export interface Runtime {
  /** The working directory relative paths are read against. */
  cwd: string;
  /** Reads an environment variable; an empty value counts as unset (docs/behaviour.md, "Configuration and environment"). */
  env(name: string): string | undefined;
  /** A line for --verbose only (made safe by the command). Never pass it a secret. */
  debug(line: string): void;
  /** A short progress line (a retry, a wait), shown whatever the verbosity. */
  notice(line: string): void;
  /** --timeout in seconds, when given. */
  timeoutSeconds?: number;
}

/** Which project, and which of its apps, a use case works on: --config, --dir, --app, --allow-empty. */
export interface ProjectSelection {
  config?: string;
  dir?: string;
  app?: string;
  /** Accept a rules directory with no rule files (validate, plan, apply). */
  allowEmpty?: boolean;
  /**
   * `--now`: the moment rule lifetimes are evaluated at, in epoch milliseconds, to rehearse
   * another moment (docs/behaviour.md, "Rules with a lifetime"). Absent: the time the command started.
   */
  now?: number;
}
