// yargs' usage errors said the way a user types options: each typo once with the nearest option,
// a mistyped command with the nearest command, and the messages of `conflicts`, `implies`,
// `choices`, `requiresArg` and `demandOption` with the options' dashes.

/** The message for yargs' failure `message`; `usage` is the usage object yargs passes to fail(). */
export function usageMessage(message: string, usage: unknown, argv: readonly string[]): string {
  return unknownArguments(message, knownOptions(usage)) ?? unknownCommand(message, argv) ?? messageWithFlags(message) ?? message;
}

/**
 * Every described option of this command line, in kebab case. yargs passes its usage object
 * as the third argument of fail(); its descriptions are keyed by option name.
 */
function knownOptions(usage: unknown): string[] {
  const described = (usage as { getDescriptions?: () => Record<string, unknown> } | undefined)?.getDescriptions?.() ?? {};
  return [...new Set(Object.keys(described).map(kebab))];
}

/**
 * yargs' "Unknown arguments: detailed-exitcod, detailedExitcod" names one typo twice (its
 * camel-case expansion) and suggests nothing: each typo once, as the user wrote it, with the
 * nearest known option when one is close. undefined for any other message.
 */
export function unknownArguments(message: string, known: readonly string[]): string | undefined {
  const match = /^Unknown arguments?: (.*)$/.exec(message);
  if (match === null) return undefined;
  const typos = [...new Set((match[1] ?? '').split(', ').map(kebab))];
  const described = typos.map((typo) => {
    const near = nearest(typo, known);
    const shown = /^\d|^-/.test(typo) || typo.length === 1 ? typo : `--${typo}`;
    return near === undefined ? shown : `${shown} (did you mean --${near}?)`;
  });
  return `Unknown argument${typos.length === 1 ? '' : 's'}: ${described.join(', ')}`;
}

/** recommendCommands() says only "Did you mean report?": say which word was not a command. */
export function unknownCommand(message: string, argv: readonly string[]): string | undefined {
  const match = /^Did you mean (\S+)\?$/.exec(message);
  if (match === null) return undefined;
  const suggestion = match[1] ?? '';
  const words = argv.filter((word) => !word.startsWith('-'));
  const typed = words.reduce<string | undefined>((best, word) => (best === undefined || editDistance(word, suggestion) < editDistance(best, suggestion) ? word : best), undefined);
  return typed === undefined ? message : `Unknown command ${JSON.stringify(typed)}. ${message}`;
}

/**
 * yargs' messages for `conflicts`, `implies`, `choices`, `requiresArg` and `demandOption` name
 * options without their dashes ("Arguments update and force are mutually exclusive"): said with
 * the flags as typed. undefined for any other message.
 */
export function messageWithFlags(message: string): string | undefined {
  const flag = (name: string) => `--${kebab(name)}`;
  const exclusive = /^Arguments (\S+) and (\S+) are mutually exclusive$/.exec(message);
  if (exclusive) return `${flag(exclusive[1] ?? '')} and ${flag(exclusive[2] ?? '')} cannot be used together`;
  const [first, ...rest] = message.split('\n');
  // yargs runs the failed implications together on one line: " dry-run -> update prune -> update".
  // The heading is its English text, or the message key itself where yargs finds no locale files
  // (the bundle).
  if (first === 'Missing dependent arguments:' || first === 'Implications failed:') {
    const needs = [...rest.join(' ').matchAll(/(\S+) -> (\S+)/g)].map((m) => `${flag(m[1] ?? '')} needs ${flag(m[2] ?? '')}`);
    return needs.sort().join('; ');
  }
  // "Invalid values:\n  Argument: format, Given: "xml", Choices: "text", "json"", one line per option.
  if (first === 'Invalid values:') {
    const invalid = rest.map((line) => /^\s*Argument: (\S+), Given: (.*), Choices: (.*)$/.exec(line)).filter((m) => m !== null);
    return invalid.map((m) => `${flag(m[1] ?? '')} must be one of ${m[3] ?? ''}, not ${m[2] ?? ''}`).join('\n');
  }
  const valueless = /^Not enough arguments following: (\S+)$/.exec(message);
  if (valueless) return `${flag(valueless[1] ?? '')} needs a value`;
  const missing = /^Missing required arguments?: (.*)$/.exec(first ?? '');
  if (missing) {
    const names = (missing[1] ?? '').split(', ').map(flag);
    return [`missing required option${names.length === 1 ? '' : 's'} ${names.join(', ')}`, ...rest].join('\n');
  }
  return undefined;
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
    const distance = editDistance(typo, name);
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] as number;
}
