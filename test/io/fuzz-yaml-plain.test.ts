// Mutated rule files against the differential check: a few characters from YAML's indicators,
// spaces, line breaks, quotes and escapes inserted, deleted or replaced at random places of
// real rule files. Every mutant the plain-style reader accepts must read as the `yaml`
// package's Document reads it (values and positions); most are left to the Document.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateRules } from '../../src/emulator/generate-rules.js';
import { randomInt, seededRandom, type Random } from '../../src/emulator/random.js';
import { ruleFileText } from '../../src/import/rule-file.js';
import { live } from '../helpers/rules.js';
import { compareReadings } from './yaml-plain-differential.js';

const ALPHABET = [...' \n\n  :#-"\'[]{},\\&*!|>%@`?~.0123456789aetuxyzTN_/é\u00a0', '- ', ': ', ' #', '\n  ', '\n- ', '""', "''", '\\u00e9', '\\x4', '[]', '{}'];
const root = join(import.meta.dirname, '..', '..');

function bases(): string[] {
  const examples = readdirSync(join(root, 'rules')).map((name) => readFileSync(join(root, 'rules', name), 'utf8'));
  const generated = generateRules(seededRandom(7), 20).map((rule, i) => ruleFileText(live({ ...rule, ruleId: `r-${rule.name}` }, i)));
  return [...examples, ...generated, 'a: [ x, { k: "v" } ]\nb:\n- c\n- d: e\n  f: 1\n'];
}

function mutant(random: Random, text: string): string {
  let result = text;
  for (let n = randomInt(random, 1, 3); n > 0; n -= 1) {
    const at = randomInt(random, 0, result.length);
    const piece = ALPHABET[randomInt(random, 0, ALPHABET.length - 1)] as string;
    const kind = randomInt(random, 0, 2);
    if (kind === 0) result = result.slice(0, at) + piece + result.slice(at);
    else if (kind === 1) result = result.slice(0, at) + result.slice(at + randomInt(random, 1, 3));
    else result = result.slice(0, at) + piece + result.slice(at + 1);
  }
  return result;
}

describe('the plain-style YAML reader on mutated files', () => {
  it('reads every mutant it accepts as the Document does', () => {
    const random = seededRandom(Number(process.env.FUZZ_SEED ?? 36));
    const texts = bases();
    const count = Number(process.env.FUZZ_RUNS ?? 4000);
    const verdicts = { same: 0, 'left to the Document': 0 };
    for (let i = 0; i < count; i += 1) verdicts[compareReadings(mutant(random, texts[i % texts.length] as string))] += 1;
    // Both kinds occur, so the check cannot pass by reading nothing.
    expect(verdicts.same).toBeGreaterThan(count / 10);
    expect(verdicts['left to the Document']).toBeGreaterThan(count / 10);
  });
});
