// The one way botrules runs git (docs/security.md, "git"). A checkout is untrusted: its
// .git/config may name commands (core.fsmonitor, a pager, hooks, an external diff, a text
// conversion, a credential helper, a signing program) that any git call would run. So every call
// goes through here: an argument list (never a shell), configuration given on the command line
// that switches each of those off (the command line outranks the repository's file), no system
// or global configuration, no prompt, no pager, a time limit, a cap on what it may print, and an
// environment made of a few named variables only, so no token of ours (GH_TOKEN, BOTRULES_…)
// reaches git unless one call passes it on purpose.
import { execFile, execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { UserError } from '../errors.js';

interface GitOptions {
  cwd: string;
  /**
   * Configuration for this one call (an Authorization header for a push), handed over in the
   * environment (GIT_CONFIG_COUNT…) so it never appears in a process list.
   */
  config?: Readonly<Record<string, string>>;
  /** Milliseconds before git is killed (default 30 s). */
  timeoutMs?: number;
  /** Bytes git may print on stdout (default 64 MiB); more is a failure. */
  maxBytes?: number;
}

type GitFailure = 'missing' | 'failed' | 'timeout' | 'too-large';

/** git could not be run, or failed; `stderr` holds git's last lines (untrusted text). */
export class GitError extends UserError {
  override readonly name = 'GitError';
  constructor(readonly failure: GitFailure, readonly command: string, readonly stderr: string) {
    super(`git ${command} failed: ${describe(failure, stderr)}`);
  }
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Settings that would make git run a program named by the repository, switched off for every
 * call. Empty `credential.helper` clears the list of helpers; the hooks directory is one that
 * holds no hook.
 */
const HARDENING_CONFIG: readonly (readonly [string, string])[] = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['core.askPass', ''],
  ['core.sshCommand', 'ssh'],
  ['credential.helper', ''],
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  // `log.showSignature` makes every `git log` verify signed commits with the program the
  // repository names (gpg.program, or the one of its format): no verification, and no program.
  ['log.showSignature', 'false'],
  ['gpg.program', 'false'],
  ['gpg.openpgp.program', 'false'],
  ['gpg.x509.program', 'false'],
  ['gpg.ssh.program', 'false'],
  // A push to a local origin runs the receive-pack program the repository names.
  ['remote.origin.receivepack', 'git-receive-pack'],
  ['remote.origin.uploadpack', 'git-upload-pack'],
  ['core.quotePath', 'false'],
];

/** Options that keep a diff-producing command from running an external diff or a text conversion. */
const DIFF_SAFETY: Readonly<Record<string, readonly string[]>> = {
  diff: ['--no-ext-diff', '--no-textconv'],
  log: ['--no-ext-diff', '--no-textconv', '--no-show-signature'],
  show: ['--no-ext-diff', '--no-textconv', '--no-show-signature'],
  blame: ['--no-textconv'],
};

/** Variables git may see; everything else (tokens among them) stays out of its environment. */
const PASSED_VARIABLES = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'LC_CTYPE', 'LC_MESSAGES', 'TZ', 'TMPDIR', 'SYSTEMROOT'];

/** stdout of git as text. */
export function git(args: readonly string[], options: GitOptions): Promise<string> {
  return run(args, options, 'utf8');
}

/** stdout of git as bytes (file contents at a revision). */
export function gitBytes(args: readonly string[], options: GitOptions): Promise<Buffer> {
  return run(args, options, 'buffer');
}

/** stdout of git, or undefined when git is missing or fails (history that cannot be read). */
export async function gitOrUndefined(args: readonly string[], options: GitOptions): Promise<string | undefined> {
  try {
    return await git(args, options);
  } catch (err) {
    if (err instanceof GitError) return undefined;
    throw err;
  }
}

/**
 * Subcommands that read files of the working tree, and so run the clean filter (or filter
 * process) the repository's attributes and config name for a file that changed: git status, git
 * diff against the working tree, blame of the working file, apply --index, add, commit.
 */
const WORKTREE_READERS: ReadonlySet<string> = new Set(['status', 'diff', 'blame', 'apply', 'add', 'commit']);

/**
 * Configuration with the repository's filter drivers emptied: git runs no filter whose command is
 * empty. Given in the environment (GIT_CONFIG_KEY_n), where a driver name holding `=` or a dot
 * cannot change which key is set.
 */
async function filtersOff(options: GitOptions): Promise<Record<string, string>> {
  const listed = await spawn(['config', '-z', '--name-only', '--get-regexp', '^filter\\.'], { cwd: options.cwd, timeoutMs: 10_000, maxBytes: 1024 * 1024 }, 'utf8').catch(() => '');
  const off: Record<string, string> = {};
  for (const key of listed.split('\0')) {
    const name = /^filter\.(.+)\.[^.]+$/s.exec(key.split('\n')[0] ?? '')?.[1];
    if (name === undefined) continue;
    for (const part of ['clean', 'smudge', 'process']) off[`filter.${name}.${part}`] = '';
    off[`filter.${name}.required`] = 'false';
  }
  return off;
}

function run(args: readonly string[], options: GitOptions, encoding: 'utf8'): Promise<string>;
function run(args: readonly string[], options: GitOptions, encoding: 'buffer'): Promise<Buffer>;
async function run(args: readonly string[], options: GitOptions, encoding: 'utf8' | 'buffer'): Promise<string | Buffer> {
  if (!WORKTREE_READERS.has(subcommand(args))) return spawn(args, options, encoding);
  return spawn(args, { ...options, config: { ...(await filtersOff(options)), ...options.config } }, encoding);
}

function spawn(args: readonly string[], options: GitOptions, encoding: 'utf8'): Promise<string>;
function spawn(args: readonly string[], options: GitOptions, encoding: 'buffer'): Promise<Buffer>;
function spawn(args: readonly string[], options: GitOptions, encoding: 'utf8' | 'buffer'): Promise<string | Buffer>;
function spawn(args: readonly string[], options: GitOptions, encoding: 'utf8' | 'buffer'): Promise<string | Buffer> {
  const command = subcommand(args);
  const argv = [...HARDENING_CONFIG.flatMap(([key, value]) => ['-c', `${key}=${value}`]), ...trustedDirectories(), '--no-pager', ...withDiffSafety(args)];
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      argv,
      { cwd: options.cwd, env: environment(options.config), encoding, shell: false, windowsHide: true, killSignal: 'SIGKILL', timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, maxBuffer: options.maxBytes ?? DEFAULT_MAX_BYTES },
      (error, stdout, stderr) => {
        if (error === null) {
          resolve(stdout);
          return;
        }
        const failed = error as NodeJS.ErrnoException & { killed?: boolean };
        const failure: GitFailure = failed.code === 'ENOENT' ? 'missing' : failed.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER' ? 'too-large' : failed.killed === true ? 'timeout' : 'failed';
        reject(new GitError(failure, command, String(stderr).trim()));
      },
    );
  });
}

function environment(config: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of PASSED_VARIABLES) if (process.env[name] !== undefined) env[name] = process.env[name];
  Object.assign(env, { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', PAGER: 'cat', GIT_OPTIONAL_LOCKS: '0' });
  const entries = Object.entries(config);
  env.GIT_CONFIG_COUNT = String(entries.length);
  entries.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}

/** Where the git subcommand is among the arguments: the first that is neither an option nor the value of `-c`. */
function subcommandAt(args: readonly string[]): number {
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    if (arg === '-c' || arg === '-C') i += 1;
    else if (!arg.startsWith('-')) return i;
  }
  return -1;
}

function subcommand(args: readonly string[]): string {
  return args[subcommandAt(args)] ?? '';
}

function withDiffSafety(args: readonly string[]): string[] {
  const at = subcommandAt(args);
  const safety = DIFF_SAFETY[args[at] ?? ''];
  return safety === undefined ? [...args] : [...args.slice(0, at + 1), ...safety, ...args.slice(at + 1)];
}

let trusted: string[] | undefined;

/**
 * `safe.directory` entries of the user's own system and global configuration, passed on: with
 * that configuration switched off, git would otherwise refuse a checkout owned by another user
 * (a CI container) that the user has marked as trusted. Read once, outside any repository.
 */
function trustedDirectories(): string[] {
  if (trusted === undefined) {
    const listed = ['--system', '--global'].flatMap((scope) => {
      try {
        // `--system` and `--global` read that one file, never a repository's.
        return execFileSync('git', ['config', scope, '--get-all', 'safe.directory'], {
          cwd: tmpdir(), encoding: 'utf8', timeout: 5_000, windowsHide: true, stdio: ['ignore', 'pipe', 'ignore'],
          env: { ...environment(), GIT_CONFIG_GLOBAL: undefined, GIT_CONFIG_NOSYSTEM: undefined },
        }).split('\n');
      } catch {
        // None set, or no git: nothing to pass on.
        return [];
      }
    });
    trusted = listed.filter((line) => line !== '').flatMap((directory) => ['-c', `safe.directory=${directory}`]);
  }
  return trusted;
}

function describe(failure: GitFailure, stderr: string): string {
  switch (failure) {
    case 'missing':
      return 'git is not installed (or not on PATH)';
    case 'timeout':
      return 'it took too long and was stopped';
    case 'too-large':
      return 'it printed more than botrules reads';
    default:
      return stderr === '' ? 'it exited with an error' : stderr.split('\n').slice(-3).join(' ');
  }
}
