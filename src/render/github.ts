// The GitHub format: annotations, which the runner shows on a line of a file in the pull
// request. Each report that can be annotated has a `github.ts` beside its other formats that
// turns it into annotations; this module says how one annotation is written as a workflow
// command. Writing them is the CLI's (src/cli/annotations.ts): under GitHub Actions they go
// through the workflow-command writer, past the guard that defuses every other `::` line.
import type { SourceLocation } from '../semantics/model.js';
import { workflowCommandData, workflowCommandProperty } from './sanitise.js';

/** A message GitHub shows on the run (the action's own failures, which concern no file). */
export interface RunAnnotation {
  level: 'error' | 'warning' | 'notice';
  /** Shown as the annotation's heading (GitHub's default is the level). */
  title?: string;
  message: string;
}

/** A message GitHub shows on a line of a file in the pull request. */
export interface Annotation extends RunAnnotation, SourceLocation {}

/** `::level file=…,line=…,col=…[,title=…]::message`, every value escaped as the runner unescapes it. */
export function workflowCommand(a: Annotation | RunAnnotation): string {
  const properties = [
    ...('file' in a ? [`file=${workflowCommandProperty(a.file)}`, `line=${a.line}`, `col=${a.col}`] : []),
    ...(a.title === undefined ? [] : [`title=${workflowCommandProperty(a.title)}`]),
  ];
  return `::${a.level}${properties.length === 0 ? '' : ` ${properties.join(',')}`}::${workflowCommandData(a.message)}`;
}
