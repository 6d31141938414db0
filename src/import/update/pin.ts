// `import --update --pin`: only the `ruleId` of each declared rule matched by name is written
// into its file, under its name; no other field, no order, no file changes. It is the step
// after creating a rule in the console (docs/behaviour.md, "Adding a rule"): the placeholder's
// fields must not overwrite the declared ones, which `plan` then shows as the changes to make.
import type { Operation } from 'fast-json-patch';
import type { TextEdit } from './text.js';
import { applyEdits } from './text.js';
import { blockRulesList } from './blocks.js';
import { ruleEdits } from './edits.js';
import { styledText, styleOf, workingText } from './line-endings.js';
import { liveCounterparts, unsupportedLayout, type FileChange, type UpdateInput, type UpdateResult } from './index.js';

export function pinRuleIds(input: UpdateInput): UpdateResult {
  // Declared rules not live yet stay as they are: they are the ones still to create.
  const { matched } = liveCounterparts(input.declared, input.live);
  const edited: UpdateResult['edited'] = [];
  const changes: FileChange[] = [];
  for (const original of input.files) {
    // Edited as LF text without a byte-order mark, written back in the file's own (line-endings.ts).
    const style = styleOf(original.text);
    const file = { ...original, text: workingText(original.text, style) };
    const rules = input.declared.filter((rule) => rule.source.file === file.shown);
    const list = blockRulesList(file.text);
    if (list === undefined || list.items.length !== rules.length) throw unsupportedLayout(file.shown);
    const edits: TextEdit[] = [];
    const operations: Operation[] = [];
    rules.forEach((rule, index) => {
      const live = matched.get(rule);
      const item = list.items[index];
      if (live === undefined || item === undefined || rule.ruleId !== undefined) return;
      // The live rule against itself: the only edit left is the missing ruleId.
      const { ruleId: _id, priority: _priority, ...fields } = live;
      edits.push(...(ruleEdits(file.text, item, fields, live) ?? []));
      edited.push({ rule: live, fields: ['ruleId'] });
      operations.push({ op: 'add', path: `/rules/${index}/ruleId`, value: live.ruleId });
    });
    const after = styledText(applyEdits(file.text, edits), style);
    if (after !== original.text) changes.push({ rel: file.rel, before: original.text, after, operations });
  }
  return { gone: [], edited, placements: [], changes };
}
