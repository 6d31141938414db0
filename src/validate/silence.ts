// Silencing a check in a rule file with a comment (docs/evaluation.md, "Rule-set analysis"):
//   # botrules-ignore: shadowed-rule, catch-all     on the rule's first line or the line above it
//   # botrules-ignore-file: allow-before-block      anywhere in the file: for every rule in it
// Ids are the stable check names; "all" silences every check.
import type { Finding } from './checks.js';

const COMMENT = /#\s*botrules-ignore(-file)?:\s*([a-z, -]+)/g;

interface FileSilences {
  /** 1-based line → ids silenced there. */
  lines: Map<number, Set<string>>;
  file: Set<string>;
}

function silencesIn(text: string): FileSilences {
  const result: FileSilences = { lines: new Map(), file: new Set() };
  if (!text.includes('botrules-ignore')) return result;
  text.split(/\r?\n/).forEach((line, i) => {
    for (const match of line.matchAll(COMMENT)) {
      const ids = (match[2] ?? '').split(',').map((id) => id.trim()).filter((id) => id !== '');
      const into = match[1] === undefined ? (result.lines.get(i + 1) ?? new Set<string>()) : result.file;
      for (const id of ids) into.add(id);
      if (match[1] === undefined) result.lines.set(i + 1, into);
    }
  });
  return result;
}

/** Findings not silenced by a comment in their file; `textOf` reads a file's text (undefined: unreadable). */
export function silenced(findings: readonly Finding[], textOf: (file: string) => string | undefined): Finding[] {
  const cache = new Map<string, FileSilences>();
  return findings.filter((finding) => {
    let silences = cache.get(finding.file);
    if (silences === undefined) {
      silences = silencesIn(textOf(finding.file) ?? '');
      cache.set(finding.file, silences);
    }
    const here = [silences.file, silences.lines.get(finding.line), silences.lines.get(finding.line - 1)];
    return !here.some((ids) => ids !== undefined && (ids.has(finding.check) || ids.has('all')));
  });
}
