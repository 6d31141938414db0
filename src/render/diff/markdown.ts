// The exhaustive behaviour diff for a pull-request comment: risk first, each change of outcome
// with its first classes (and how many more), what was left unchecked last; capped so that a
// plan with thousands of classes still fits GitHub's comment limit. Every string from a rule
// file goes through markdownText.
import type { AppBehaviourDiff } from '../../diff/outcomes.js';
import { markdownText } from '../markdown.js';
import { changeLine, classLine, diffHeading, isLoosening, uncheckedLine } from './words.js';

interface MarkdownCaps {
  /** Changes of outcome listed in all. */
  changes: number;
  /** Classes listed per change of outcome. */
  classes: number;
}

export const COMMENT_CAPS: MarkdownCaps = { changes: 15, classes: 3 };

export function behaviourDiffMarkdown(diffs: readonly AppBehaviourDiff[], caps: MarkdownCaps, moreHint: string): string {
  const showApp = diffs.length > 1;
  const lines = [`#### ${markdownText(diffHeading(diffs))}`, ''];
  const changes = diffs.flatMap((diff) => diff.changes.map((change) => ({ app: showApp ? diff.app : undefined, change })));
  for (const { app, change } of changes.slice(0, caps.changes)) {
    const line = markdownText(changeLine(change, app));
    lines.push(`- ${isLoosening(change) ? `**${line}**` : line}`);
    for (const requestClass of change.classes.slice(0, caps.classes)) lines.push(`  - ${markdownText(classLine(requestClass))}`);
    const more = change.classes.length - caps.classes;
    if (more > 0) lines.push(`  - … and ${more} more`);
  }
  const moreChanges = changes.length - caps.changes;
  if (moreChanges > 0) lines.push(`- … and ${moreChanges} more changes of outcome`);
  for (const diff of diffs) for (const part of diff.unchecked) lines.push(`- ${markdownText(uncheckedLine(part, showApp ? diff.app : undefined))}`);
  if (moreChanges > 0 || changes.some(({ change }) => change.classes.length > caps.classes)) lines.push('', `_${hintMarkdown(moreHint)}_`);
  return `${lines.join('\n')}\n\n`;
}

/**
 * A hint of ours with commands in backticks: the commands as code spans, the words through the
 * sanitiser (escaped backticks inside italics would show literally).
 */
function hintMarkdown(hint: string): string {
  return hint.split('`').map((part, index) => (index % 2 === 1 ? `\`${part}\`` : markdownText(part))).join('');
}
