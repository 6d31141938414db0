// git as the `botrules github` commands run it: an argument list (never a shell), in the
// checkout, with no system configuration, no prompt, and extra configuration given through
// the environment (GIT_CONFIG_COUNT…) so a credential never appears in a process list.
import { execFile } from 'node:child_process';
import { UserError } from '../errors.js';
import { safeText } from '../render/sanitise.js';

export interface GitOptions {
  cwd: string;
  /** Configuration for this one call, e.g. an Authorization header for a push. */
  config?: Record<string, string>;
}

const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

export function git(args: readonly string[], options: GitOptions): Promise<string> {
  const config = Object.entries(options.config ?? {});
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_COUNT: String(config.length) };
  config.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return new Promise((resolve, reject) => {
    execFile('git', [...args], { cwd: options.cwd, env, encoding: 'utf8', maxBuffer: MAX_OUTPUT_BYTES }, (error, stdout, stderr) => {
      if (error) {
        const why = stderr.trim().split('\n').slice(-3).join(' ') || error.message;
        reject(new UserError(`git ${args[0] ?? ''} failed: ${safeText(why)}`));
        return;
      }
      resolve(stdout);
    });
  });
}
