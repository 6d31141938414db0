// `botrules diff OLD NEW` in each format (docs/behaviour.md, "Exhaustive behaviour diff"):
// what each side was read as, then the diff. JSON is exact data (invisible characters
// escaped); text and Markdown pass every string from a rule file through the sanitiser.
import type { AppBehaviourDiff } from '../../plan/types.js';
import type { RendererRegistry } from '../contract.js';
import { MARKDOWN_LIMIT } from '../plan/markdown.js';
import { markdownText, safeJson, safeText } from '../sanitise.js';
import { behaviourDiffMarkdown } from './markdown.js';
import { writeBehaviourDiffText } from './text.js';

export interface RuleSetsDiffView {
  /** What each side was read as. */
  sides: readonly [string, string];
  diff: AppBehaviourDiff;
}

/** The version of `botrules diff --format json`. */
export const DIFF_FORMAT_VERSION = 1;

const MORE = 'botrules diff --format json lists them all';

export const RULE_SETS_DIFF_RENDERERS = {
  text: (view: RuleSetsDiffView, out, options) => {
    out.write(`${options.colors.dim(`Comparing ${safeText(view.sides[0])} with ${safeText(view.sides[1])}.`)}\n`);
    writeBehaviourDiffText([view.diff], out, options.colors, MORE);
  },
  json: (view: RuleSetsDiffView, out) => {
    const document = { formatVersion: DIFF_FORMAT_VERSION, old: view.sides[0], new: view.sides[1], ...view.diff };
    out.write(`${safeJson(JSON.stringify(document, null, 2))}\n`);
  },
  markdown: (view: RuleSetsDiffView, out) => {
    const head = `### botrules diff\n\nComparing ${markdownText(view.sides[0])} with ${markdownText(view.sides[1])}.\n\n`;
    // Fewer classes and changes until it fits a pull-request comment.
    let caps = { changes: 200, classes: 10 };
    let body = behaviourDiffMarkdown([view.diff], caps, MORE);
    while (head.length + body.length > MARKDOWN_LIMIT && caps.changes > 1) {
      caps = { changes: Math.floor(caps.changes / 2), classes: Math.max(1, Math.floor(caps.classes / 2)) };
      body = behaviourDiffMarkdown([view.diff], caps, MORE);
    }
    out.write(head + body);
  },
} satisfies RendererRegistry<RuleSetsDiffView>;

export type RuleSetsDiffFormat = keyof typeof RULE_SETS_DIFF_RENDERERS;
export const RULE_SETS_DIFF_FORMATS = Object.keys(RULE_SETS_DIFF_RENDERERS) as RuleSetsDiffFormat[];
