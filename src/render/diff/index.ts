// `botrules diff OLD NEW` in each format (docs/behaviour.md, "Exhaustive behaviour diff"):
// what each side was read as, then the diff. JSON is exact data (invisible characters
// escaped); text and Markdown pass every string from a rule file through the sanitiser.
import type { AppBehaviourDiff } from '../../diff/outcomes.js';
import { formatNames, type OutputRegistry } from '../contract.js';
import type { PolicyFinding } from '../policies/model.js';
import { findingDocument, policyMessage } from '../policies/words.js';
import { MARKDOWN_LIMIT } from '../plan/markdown.js';
import { markdownText, safeJson, safeText } from '../sanitise.js';
import { behaviourDiffMarkdown } from './markdown.js';
import { writeBehaviourDiffText } from './text.js';
import { definedFields } from '../../defined.js';

/** What `botrules diff` found (src/engine/diff-rule-sets.ts). */
export interface RuleSetsDiffView {
  /** What each side was read as: `rules/ (12 rules)`, `live.json, app "default" (40 rules)`. */
  sides: readonly [string, string];
  diff: AppBehaviourDiff;
  /** The project's policies whose verdict differs between the sides, when it has any (docs/behaviour.md, "Policies"). */
  policies?: readonly PolicyChange[];
}

/** A policy's verdict on each side. */
export interface PolicyChange {
  before: PolicyFinding;
  after: PolicyFinding;
}

function policyChangeLine(change: PolicyChange): string {
  const { after } = change;
  return `${after.at.file}:${after.at.line}:${after.at.col}: policy ${JSON.stringify(after.policy)}: ${change.before.verdict} → ${after.verdict}: ${policyMessage(after)}`;
}

/** The version of `botrules diff --format json`. */
const DIFF_FORMAT_VERSION = 1;

const MORE = 'botrules diff --format json lists them all';

export const RULE_SETS_DIFF_OUTPUTS = {
  text: { stdout: (view, out, options) => {
    out.write(`${options.colors.dim(`Comparing ${safeText(view.sides[0])} with ${safeText(view.sides[1])}.`)}\n`);
    writeBehaviourDiffText([view.diff], out, options.colors, MORE);
    const changes = view.policies ?? [];
    if (changes.length > 0) out.write(`Policies whose verdict changes:\n${changes.map((change) => `  ${safeText(policyChangeLine(change))}\n`).join('')}`);
  } },
  json: { stdout: (view, out) => {
    const document = { formatVersion: DIFF_FORMAT_VERSION, old: view.sides[0], new: view.sides[1], ...view.diff, ...definedFields({ policies: view.policies?.map((change) => ({ before: findingDocument(change.before), after: findingDocument(change.after) })) }) };
    out.write(`${safeJson(JSON.stringify(document, null, 2))}\n`);
  } },
  markdown: { stdout: (view, out) => {
    const changes = view.policies ?? [];
    const policies = changes.length === 0 ? '' : `**Policies whose verdict changes:**\n\n${changes.map((change) => `- ${markdownText(policyChangeLine(change))}\n`).join('')}\n`;
    const head = `### botrules diff\n\nComparing ${markdownText(view.sides[0])} with ${markdownText(view.sides[1])}.\n\n${policies}`;
    // Fewer classes and changes until it fits a pull-request comment.
    let caps = { changes: 200, classes: 10 };
    let body = behaviourDiffMarkdown([view.diff], caps, MORE);
    while (head.length + body.length > MARKDOWN_LIMIT && caps.changes > 1) {
      caps = { changes: Math.floor(caps.changes / 2), classes: Math.max(1, Math.floor(caps.classes / 2)) };
      body = behaviourDiffMarkdown([view.diff], caps, MORE);
    }
    out.write(head + body);
  } },
} as const satisfies OutputRegistry<RuleSetsDiffView>;

export const RULE_SETS_DIFF_FORMATS = formatNames(RULE_SETS_DIFF_OUTPUTS);
