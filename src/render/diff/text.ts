// The exhaustive behaviour diff for a terminal: the heading, then per change of outcome (risk
// first) its classes of requests, each with an example, then what was left unchecked. Every
// string from a rule file goes through safeText.
import type { AppBehaviourDiff } from '../../diff/outcomes.js';
import type { Colors, Sink } from '../contract.js';
import { safeText } from '../sanitise.js';
import { changeLine, classLine, diffHeading, isLoosening, uncheckedLine } from './words.js';

/** Classes listed per change of outcome before "… and N more". */
const LISTED_CLASSES = 20;

export function writeBehaviourDiffText(diffs: readonly AppBehaviourDiff[], out: Sink, c: Colors, moreHint: string): void {
  const showApp = diffs.length > 1;
  const heading = safeText(diffHeading(diffs));
  out.write(`${heading.endsWith(':') ? c.bold(heading) : c.dim(heading)}\n`);
  for (const diff of diffs) {
    const app = showApp ? diff.app : undefined;
    for (const change of diff.changes) {
      const line = safeText(changeLine(change, app));
      out.write(`  ${isLoosening(change) ? `${c.red('!')} ${c.bold(line)}` : `${c.magenta('≠')} ${line}`}\n`);
      for (const requestClass of change.classes.slice(0, LISTED_CLASSES)) out.write(`      ${safeText(classLine(requestClass))}\n`);
      const more = change.classes.length - LISTED_CLASSES;
      if (more > 0) out.write(`      ${c.dim(`… and ${more} more (${moreHint})`)}\n`);
    }
    for (const part of diff.unchecked) out.write(`  ${c.yellow('?')} ${safeText(uncheckedLine(part, app))}\n`);
  }
}
