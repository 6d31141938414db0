// GitHub annotations: one output mode, chosen once in `main` from the environment. Under
// GitHub Actions every annotation (validate's problems and warnings, analysis findings, failed
// tests) is written as a workflow command through `writeWorkflowCommand`, past the stream guard
// that defuses every other `::` line; elsewhere annotations are not written at all.
import { workflowCommandData, workflowCommandProperty } from '../render/sanitise.js';
import type { CliIo } from './context.js';
import { writeWorkflowCommand } from './workflow-guard.js';

/** A message GitHub shows on a line of a file in the pull request. */
export interface Annotation {
  level: 'error' | 'warning' | 'notice';
  file: string;
  line: number;
  col: number;
  /** Shown as the annotation's heading (GitHub's default is the level). */
  title?: string;
  message: string;
}

export interface Annotations {
  write(annotations: readonly Annotation[]): void;
}

/** The runner sets GITHUB_ACTIONS=true in every step (docs.github.com, "Default environment variables"). */
export function underGitHubActions(env: CliIo['env']): boolean {
  return env.GITHUB_ACTIONS === 'true';
}

/** Annotations for this run: workflow commands on stderr under GitHub Actions, nothing otherwise. */
export function annotationsFor(io: Pick<CliIo, 'env' | 'stderr'>): Annotations {
  if (!underGitHubActions(io.env)) return { write: () => undefined };
  return {
    write(annotations) {
      for (const annotation of annotations) writeWorkflowCommand(io.stderr, workflowCommand(annotation));
    },
  };
}

/** `::level file=…,line=…,col=…[,title=…]::message`, every value escaped as the runner unescapes it. */
export function workflowCommand(a: Annotation): string {
  const title = a.title === undefined ? '' : `,title=${workflowCommandProperty(a.title)}`;
  return `::${a.level} file=${workflowCommandProperty(a.file)},line=${a.line},col=${a.col}${title}::${workflowCommandData(a.message)}`;
}
