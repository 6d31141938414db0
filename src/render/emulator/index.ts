// What `botrules emulator` says (docs/behaviour.md, "The emulator"): the export lines a shell
// needs, a summary of what it serves, the ready line scripts wait for, the stop; and what
// `emulator console` did. Paths and names come from the user or a state file: made safe.
import { writeLines, type StreamRenderers } from '../contract.js';
import { safeText } from '../sanitise.js';

export interface EmulatorExportsView {
  consoleUrl: string;
  gatewayUrl: string;
  caPath: string;
  /** Tokens the emulator invented itself: the user could not know them otherwise. Tokens taken from the environment or flags are never printed. */
  inventedAppToken?: string;
  inventedApiToken?: string;
}

/** The `export NAME=value` lines, for stdout and `--exports-file` alike. */
export function exportLines(view: EmulatorExportsView): string {
  const lines = [
    `export BOTRULES_CONSOLE_URL=${shellQuote(view.consoleUrl)}`,
    `export BOTRULES_GATEWAY_URL=${shellQuote(view.gatewayUrl)}`,
    `export NODE_EXTRA_CA_CERTS=${shellQuote(view.caPath)}`,
  ];
  if (view.inventedAppToken !== undefined) lines.push(`export BOTRULES_TOKEN=${shellQuote(view.inventedAppToken)}`);
  if (view.inventedApiToken !== undefined) lines.push(`export BOTRULES_API_TOKEN=${shellQuote(view.inventedApiToken)}`);
  return `${lines.join('\n')}\n`;
}

function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

export const EMULATOR_EXPORTS: StreamRenderers<EmulatorExportsView> = {
  stdout: async (view, sink) => {
    await sink.write(exportLines(view));
  },
};

export interface EmulatorSummaryView {
  statePath: string;
  /** An existing state was resumed although seed options were given. */
  seedIgnored: boolean;
  apps: readonly { name: string; rules: number }[];
  scripts: number;
  /** What the rule API serves beside list and PATCH (--capabilities): `create`, `delete`. */
  capabilities: readonly string[];
}

export const EMULATOR_SUMMARY: StreamRenderers<EmulatorSummaryView> = {
  stderr: ({ statePath, seedIgnored, apps, scripts, capabilities }, sink) => {
    const shownApps = apps.map(({ name, rules }) => `${name}: ${rules} rules`).join(', ');
    // Said at start-up, so a rehearsal of creates and deletes does not first meet a 405.
    const served = capabilities.length === 0
      ? 'capabilities: none (list and PATCH; POST and DELETE answer 405 without --capabilities create,delete)'
      : `capabilities: ${capabilities.join(', ')}`;
    return writeLines(sink, [
      ...(seedIgnored ? [`Resumed the existing state ${safeText(statePath)}: seed options ignored (use --reset to seed afresh).`] : []),
      `botrules emulator: ${safeText(shownApps)}; ${scripts} scripts; ${served}; state ${safeText(statePath)}`,
      'Paste the export lines into your shell; stop with Ctrl-C (the state is saved).',
    ]);
  },
};

/** The line scripts wait for. */
export const EMULATOR_READY: StreamRenderers<{ url: string }> = {
  stdout: ({ url }, sink) => writeLines(sink, [`emulator ready on ${url}`]),
};

/** Said when --app-token put a token on the command line. */
export const EMULATOR_TOKEN_ON_COMMAND_LINE: StreamRenderers<undefined> = {
  stderr: (_view, sink) => writeLines(sink, ['warning: --app-token puts the token on the command line, where other users of this machine can read it; use --app-token-file FILE (NAME=TOKEN lines) or BOTRULES_TOKEN']),
};

export const EMULATOR_STOPPED: StreamRenderers<{ statePath: string }> = {
  stderr: ({ statePath }, sink) => writeLines(sink, [`emulator stopped; state saved to ${safeText(statePath)}`]),
};

export const TRAFFIC_WRITTEN: StreamRenderers<{ count: number; file: string }> = {
  stdout: ({ count, file }, sink) => writeLines(sink, [`Wrote ${count} synthetic requests to ${safeText(file)}; replay them with: botrules replay ${safeText(file)}`]),
};

/** A rule `emulator console` created or deleted; `priority` is 0-based, positions are 1-based. */
type ConsoleActionView = { action: 'create' | 'delete'; rule: { name: string; ruleId: string; priority: number; status: string } };

export const CONSOLE_ACTION: StreamRenderers<ConsoleActionView> = {
  stdout: ({ action, rule }, sink) => writeLines(sink, [action === 'create'
    ? `Created "${safeText(rule.name)}" (${safeText(rule.ruleId)}) at position ${rule.priority + 1}, ${rule.status}.`
    : `Deleted "${safeText(rule.name)}" (${safeText(rule.ruleId)}), which was at position ${rule.priority + 1}.`]),
};
