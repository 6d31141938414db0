// FILE:LINE:COL of a part of a declared rule (a leaf, a range in a list, an action): its rule
// file read again through the located YAML reader, once per file and only for the files a
// report points into. The rules were loaded without a problem, so a rule's place in its file
// is its place among the rules loaded from that file.
import { resolve } from 'node:path';
import { parseYamlText, type YamlSource } from '../io/yaml-source.js';
import { DEFAULT_MAX_BYTES, readSourceText } from '../io/source-text.js';
import type { NormalRule, SourceLocation } from '../semantics/model.js';

type Located = NormalRule & { source?: SourceLocation };

export type PositionOf = (index: number, path: readonly (string | number)[]) => SourceLocation | undefined;

export function rulePositions(rules: readonly Located[], cwd: string): PositionOf {
  const ordinals: number[] = [];
  const perFile = new Map<string, number>();
  for (const rule of rules) {
    const file = rule.source?.file ?? '';
    const ordinal = perFile.get(file) ?? 0;
    ordinals.push(ordinal);
    perFile.set(file, ordinal + 1);
  }
  const sources = new Map<string, YamlSource | undefined>();
  const sourceOf = (file: string): YamlSource | undefined => {
    if (!sources.has(file)) {
      const text = readSourceText(resolve(cwd, file), DEFAULT_MAX_BYTES);
      sources.set(file, text.ok ? parseYamlText(text.text, { displayPath: file }) : undefined);
    }
    return sources.get(file);
  };
  return (index, path) => {
    const source = rules[index]?.source;
    if (source === undefined) return undefined;
    if (path.length === 0) return source;
    const yaml = sourceOf(source.file);
    if (yaml === undefined) return source;
    return { file: source.file, ...yaml.locate(['rules', ordinals[index] ?? 0, ...path]) };
  };
}
