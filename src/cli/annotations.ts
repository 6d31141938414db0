// GitHub annotations: one output mode, chosen once in `main` from the environment. Under
// GitHub Actions every annotation (validate's problems and warnings, analysis findings, failed
// tests) is written as a workflow command through `writeWorkflowCommand`, past the stream guard
// that defuses every other `::` line; elsewhere annotations are not written at all.
// What each report's annotations are is the report's `github` format (src/render/*/github.ts).
import type { Writable } from 'node:stream';
import { workflowCommand, type Annotation, type RunAnnotation } from '../render/github.js';
import { writeWorkflowCommand } from './workflow-guard.js';

export interface Annotations {
  write(annotations: readonly (Annotation | RunAnnotation)[]): void;
}

/** The runner sets GITHUB_ACTIONS=true in every step (docs.github.com, "Default environment variables"). */
export function underGitHubActions(env: Readonly<Record<string, string | undefined>>): boolean {
  return env.GITHUB_ACTIONS === 'true';
}

/** Annotations for this run: workflow commands on stderr under GitHub Actions, nothing otherwise. */
export function annotationsFor(io: { env: Readonly<Record<string, string | undefined>>; stderr: Writable }): Annotations {
  if (!underGitHubActions(io.env)) return { write: () => undefined };
  return {
    write(annotations) {
      for (const annotation of annotations) writeWorkflowCommand(io.stderr, workflowCommand(annotation));
    },
  };
}
