// `import --update --pin`: only the `ruleId` of each declared rule matched by name is written
// into its file, under its name; no other field, no order, no file changes. It is the step
// after creating a rule in the console (docs/behaviour.md, "Adding a rule"): the placeholder's
// fields must not overwrite the declared ones, which `plan` then shows as the changes to make.
// The change is one `add /rules/N/ruleId` per such rule, written by the one interpreter.
import type { Operation } from 'fast-json-patch';
import { finishFiles } from './finish.js';
import { interpretFile, type FileState } from './interpret.js';
import { liveCounterparts, sourceOf, writtenText, type FileChange, type UpdateInput, type UpdateResult } from './index.js';

export function pinRuleIds(input: UpdateInput): UpdateResult {
  // Declared rules not live yet stay as they are: they are the ones still to create.
  const { matched } = liveCounterparts(input.declared, input.live);
  const edited: UpdateResult['edited'] = [];
  const states = new Map<string, FileState>();
  const patches = new Map<string, Operation[]>();
  const sources = new Map<string, ReturnType<typeof sourceOf>>();
  for (const file of input.files) {
    const operations: Operation[] = [];
    input.declared
      .filter((rule) => rule.source.file === file.shown)
      .forEach((rule, index) => {
        const live = matched.get(rule);
        if (live === undefined || rule.ruleId !== undefined) return;
        edited.push({ rule: live, fields: ['ruleId'] });
        operations.push({ op: 'add', path: `/rules/${index}/ruleId`, value: live.ruleId });
      });
    if (operations.length === 0) continue;
    const source = sourceOf(file);
    sources.set(file.rel, source);
    patches.set(file.rel, operations);
    states.set(file.rel, interpretFile(source, operations));
  }
  const changes: FileChange[] = [...finishFiles(states)].map(([rel, text]) => {
    const file = input.files.find((f) => f.rel === rel) as UpdateInput['files'][number];
    return { rel, before: file.text, after: writtenText(file, sources.get(rel) as ReturnType<typeof sourceOf>, text), operations: patches.get(rel) ?? [] };
  });
  return { gone: [], edited, placements: [], changes };
}
