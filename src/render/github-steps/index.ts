// What the `botrules github …` steps say (examples/github-workflows/README.md): one line per
// artifact passed over or chosen, per comment or issue written, per drift pull request
// opened or closed. Names, branches and commits come from GitHub or the config, so they are
// made safe (docs/security.md, "Untrusted text").
import { writeLines, type StreamRenderers } from '../contract.js';
import { safeText } from '../sanitise.js';

/** The artifacts `github artifact` passed over, one sentence each, newest first. */
export const ARTIFACTS_SKIPPED: StreamRenderers<readonly string[]> = {
  stderr: (skipped, sink) => writeLines(sink, skipped.map((line) => `Passed over ${safeText(line)}`)),
};

interface ArtifactChoiceView {
  name: string;
  workflows: readonly string[];
  defaultBranch: string;
  /** The artifact chosen; undefined when none qualifies (and `--optional` was given). */
  accepted?: { artifactId: number; runId: number; workflow: string; event: string; headSha: string; sizeInBytes: number };
}

/** Why no artifact qualifies: the error's sentence, or without `--optional` the line said. */
export function noArtifactSentence({ name, workflows, defaultBranch }: ArtifactChoiceView): string {
  return `no artifact ${safeText(name)} written by a push, schedule or manual run of ${workflows.join(' or ')} in this repository on the history of refs/heads/${safeText(defaultBranch)}`;
}

export const ARTIFACT_CHOICE: StreamRenderers<ArtifactChoiceView> = {
  stdout: (view, sink) => {
    const { accepted } = view;
    if (accepted === undefined) {
      const sentence = noArtifactSentence(view);
      return writeLines(sink, [`${sentence[0]?.toUpperCase()}${sentence.slice(1)}.`]);
    }
    return writeLines(sink, [
      `Artifact ${safeText(view.name)} (${accepted.artifactId}, ${accepted.sizeInBytes} bytes) of run ${accepted.runId}: ${safeText(accepted.workflow)}, ${safeText(accepted.event)}, commit ${safeText(accepted.headSha)} on refs/heads/${safeText(view.defaultBranch)}`,
    ]);
  },
  // Only with --optional when none qualifies (else the command fails): the job goes on without
  // one (for the script inventory, a new chain), and says so.
  stderr: (view, sink) => writeLines(sink, view.accepted === undefined
    ? [`warning: ${noArtifactSentence(view)}; --optional: found=false, and the job goes on without one`]
    : []),
};

export const PLAN_COMMENTS: StreamRenderers<readonly { app: string; action: 'created' | 'updated'; commentId: number }[]> = {
  stdout: (results, sink) => writeLines(sink, results.length === 0
    ? ['No plans to comment on.']
    : results.map(({ app, action, commentId }) => `${action === 'created' ? 'Created' : 'Updated'} the plan comment of app ${safeText(app)} (${commentId})`)),
};

interface DriftProposalView {
  app: string;
  /** The commit this run checked out. */
  sha: string;
  /** The drift branch of the app. */
  branch: string;
  outcome: { kind: 'no-record' } | { kind: 'superseded'; tip: string } | { kind: 'in-sync'; closed?: number } | { kind: 'opened' | 'updated'; number: number };
}

export const DRIFT_PROPOSAL: StreamRenderers<DriftProposalView> = {
  stdout: ({ app, sha, branch, outcome }, sink) => {
    const shownApp = safeText(app);
    switch (outcome.kind) {
      case 'no-record':
        return undefined;
      case 'superseded':
        return writeLines(sink, [`${sha} is no longer the tip of the default branch (${safeText(outcome.tip)}): a newer run proposes.`]);
      case 'in-sync':
        return writeLines(sink, [outcome.closed === undefined ? `No drift for app ${shownApp}.` : `Closed drift pull request #${outcome.closed} of ${shownApp} and deleted ${safeText(branch)}`]);
      default:
        return writeLines(sink, [`${outcome.kind === 'opened' ? 'Opened' : 'Updated'} drift pull request #${outcome.number} of ${shownApp}`]);
    }
  },
  stderr: ({ app, outcome }, sink) => (outcome.kind === 'no-record'
    ? writeLines(sink, [`warning: no drift record for app ${safeText(app)} (its detect job failed): nothing proposed`])
    : undefined),
};

const ISSUE_SAID = { opened: 'Opened the drift issue', updated: 'Updated the drift issue', closed: 'Closed the drift issue' } as const;

export const DRIFT_ISSUES: StreamRenderers<readonly { app: string; action: 'opened' | 'updated' | 'closed' | 'none'; number?: number }[]> = {
  stdout: (results, sink) => writeLines(sink, results.length === 0
    ? ['No drift reports.']
    : results.map(({ app, action, number }) => (action === 'none' ? `No drift for app ${safeText(app)}.` : `${ISSUE_SAID[action]} #${number ?? 0} of app ${safeText(app)}`))),
};

/** The step's outputs as GITHUB_OUTPUT takes them: `name=value` lines (every value here is a number or a word). */
export function stepOutputLines(outputs: Readonly<Record<string, string>>): string {
  return Object.entries(outputs).map(([key, value]) => `${key}=${value}\n`).join('');
}
