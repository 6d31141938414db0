// yargs' usage errors said the way a user types options. yargs' own strings are replaced
// through `updateStrings()` (YARGS_STRINGS, set in main.ts): the messages it can say whole are
// said in botrules' words there; the ones that carry a list (unknown arguments, missing
// options, failed implications, invalid choices) come back as fields between NUL separators
// that `usageMessage` lays out, so no English sentence of yargs is ever parsed.
import { distance as levenshtein } from 'fastest-levenshtein';
import { noun } from '../plural.js';

const SEP = '\u0000';
const UNKNOWN = `${SEP}unknown${SEP}`;
const MISSING = `${SEP}missing${SEP}`;
const IMPLIES = `${SEP}implies${SEP}`;
const CHOICES = `${SEP}choices${SEP}`;

/** yargs' message keys (its y18n strings) and botrules' wording of each. */
export const YARGS_STRINGS = {
  'Arguments %s and %s are mutually exclusive': '--%s and --%s cannot be used together',
  'Not enough arguments following: %s': '--%s needs a value',
  'Not enough non-option arguments: got %s, need at least %s': {
    one: 'missing arguments: got %s, needs at least %s (see --help)',
    other: 'missing arguments: got %s, needs at least %s (see --help)',
  },
  'Too many non-option arguments: got %s, maximum of %s': { one: 'too many arguments: got %s, at most %s', other: 'too many arguments: got %s, at most %s' },
  'Unknown argument: %s': { one: `${UNKNOWN}%s`, other: `${UNKNOWN}%s` },
  'Missing required argument: %s': { one: `${MISSING}%s`, other: `${MISSING}%s` },
  'Implications failed:': IMPLIES,
  'Invalid values:': CHOICES,
  'Argument: %s, Given: %s, Choices: %s': `%s${SEP}%s${SEP}%s`,
} as const;

/**
 * The message for a yargs failure, once its strings are YARGS_STRINGS: the list-carrying ones
 * laid out, the others as they are. `usage` is the usage object yargs passes to fail(); `argv`
 * the command line, `commands` the names of botrules' commands.
 */
export function usageMessage(message: string, usage: unknown, argv: readonly string[], commands: readonly string[]): string {
  if (message.startsWith(UNKNOWN)) return unknownArguments(message.slice(UNKNOWN.length).split(', '), knownOptions(usage), argv, commands);
  if (message.startsWith(MISSING)) return missingOptions(message.slice(MISSING.length));
  if (message.startsWith(IMPLIES)) return implications(message.slice(IMPLIES.length));
  if (message.startsWith(CHOICES)) return invalidChoices(message.slice(CHOICES.length));
  const suggestion = /^Did you mean (\S+)\?$/.exec(message)?.[1];
  return suggestion === undefined ? message : unknownCommand(suggestion, argv, message);
}

/** Every described option of this command line, in kebab case (yargs' descriptions are keyed by option name). */
function knownOptions(usage: unknown): string[] {
  const described = (usage as { getDescriptions?: () => Record<string, unknown> } | undefined)?.getDescriptions?.() ?? {};
  return [...new Set(Object.keys(described).map(kebab))];
}

/**
 * yargs names a typo twice (`detailed-exitcod, detailedExitcod`, its camel-case expansion) and
 * a word it did not expect like an option: each typed option once, as typed, with the nearest
 * known option when one is close; words said as words, with the command they do not belong to.
 */
function unknownArguments(reported: readonly string[], known: readonly string[], argv: readonly string[], commands: readonly string[]): string {
  const words = new Set(argv.filter((arg) => !arg.startsWith('-')));
  const unknownWords = [...new Set(reported.filter((name) => words.has(name)))];
  const typos = [...new Set(reported.filter((name) => !words.has(name)).map(kebab))];
  const sentences: string[] = [];
  if (typos.length > 0) {
    const described = typos.map((typo) => {
      const near = nearest(typo, known);
      const shown = /^\d/.test(typo) || typo.length === 1 ? typo : `--${typo}`;
      return near === undefined ? shown : `${shown} (did you mean --${near}?)`;
    });
    sentences.push(`Unknown ${noun(typos.length, 'argument')}: ${described.join(', ')}`);
  }
  if (unknownWords.length > 0) {
    const command = argv.find((arg) => commands.includes(arg));
    const quoted = unknownWords.map((word) => JSON.stringify(word)).join(', ');
    sentences.push(command === undefined
      ? `Unknown command ${quoted}: see botrules --help`
      : `${quoted} ${noun(unknownWords.length, 'is', 'are')} not an action or argument of botrules ${command}: see botrules ${command} --help`);
  }
  return sentences.join('\n');
}

/** recommendCommands() says only "Did you mean report?": say which word was not a command. */
function unknownCommand(suggestion: string, argv: readonly string[], message: string): string {
  const words = argv.filter((word) => !word.startsWith('-'));
  const typed = words.reduce<string | undefined>((best, word) => (best === undefined || levenshtein(word, suggestion) < levenshtein(best, suggestion) ? word : best), undefined);
  return typed === undefined ? message : `Unknown command ${JSON.stringify(typed)}. ${message}`;
}

/** `app-id, tld` plus yargs' custom text (the option's demandOption string, on its own line). */
function missingOptions(fields: string): string {
  const [names = '', ...rest] = fields.split('\n');
  const flags = names.split(', ').map((name) => `--${kebab(name)}`);
  return [`missing required ${noun(flags.length, 'option')} ${flags.join(', ')}`, ...rest].join('\n');
}

/** yargs runs the failed implications together: "\n dry-run -> update prune -> update". */
function implications(fields: string): string {
  const pairs = fields.trim().split(/\s+/);
  const needs: string[] = [];
  for (let i = 0; i + 2 < pairs.length + 1; i += 3) needs.push(`--${kebab(pairs[i] ?? '')} needs --${kebab(pairs[i + 2] ?? '')}`);
  return needs.sort().join('; ');
}

/** One line per option: `\n  format NUL "xml" NUL "text", "json"`. */
function invalidChoices(fields: string): string {
  return fields.split('\n').map((line) => line.trim()).filter((line) => line !== '').map((line) => {
    const [name = '', given = '', choices = ''] = line.split(SEP);
    return `--${kebab(name)} must be one of ${choices}, not ${given}`;
  }).join('\n');
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** The known option within edit distance 2 (or a third of the name) of `typo`, if one is nearest. */
function nearest(typo: string, known: readonly string[]): string | undefined {
  const limit = Math.max(2, Math.floor(typo.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    if (name.length <= 1) continue;
    const distance = levenshtein(typo, name);
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
