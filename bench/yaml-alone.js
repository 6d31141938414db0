// The floor under `botrules validate`: the `yaml` package alone reading every file of a rules
// directory into plain values (parseDocument, with a LineCounter, then toJS), in one process,
// with none of the tool: no start-up of the CLI, no schema, no checks, no analysis, no output.
// validate.bench.js runs it as a reference row beside `botrules validate` of the same files.
// Usage: node bench/yaml-alone.js RULES_DIR   (prints the number of files and rules read)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';

const dir = process.argv[2] ?? 'rules';
let files = 0;
let rules = 0;
for (const name of readdirSync(dir).sort()) {
  const lineCounter = new LineCounter();
  const value = parseDocument(readFileSync(join(dir, name), 'utf8'), { lineCounter, uniqueKeys: false }).toJS();
  files += 1;
  rules += value.rules.length;
}
console.log(`${files} files, ${rules} rules`);
