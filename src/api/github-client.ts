// The GitHub REST API, for the `botrules github` commands that run in workflows: the same
// host client as the service's (HTTPS only, no redirects, bounded answers, the token never
// in a message), with the few verbs those commands need. Only the workflow's own token
// (GH_TOKEN or GITHUB_TOKEN) is ever sent here, never a rules token.
import { UserError } from '../errors.js';
import { createHostClient } from './http.js';
import type { ApiRequest, HostOptions } from './types.js';
import { definedFields } from '../defined.js';

export const GITHUB_API_URL_VARIABLE = 'GITHUB_API_URL';
export const GITHUB_REPOSITORY_VARIABLE = 'GITHUB_REPOSITORY';
/** The variables the workflow token may come in, in the order they are read (gh reads them so too). */
export const GITHUB_TOKEN_VARIABLES = ['GH_TOKEN', 'GITHUB_TOKEN'] as const;
export const DEFAULT_GITHUB_API_URL = 'https://api.github.com';

/** List endpoints are read 100 items a page, and never more pages than a caller allows. */
const PAGE_SIZE = 100;

export interface GitHubApi {
  get<T>(path: string, operation: string, searchParams?: Record<string, string>): Promise<T>;
  /** Every item of a list endpoint, page by page (`key`: the array's property in an object answer). */
  list<T>(path: string, operation: string, options: { searchParams?: Record<string, string>; key?: string; maxPages: number }): Promise<T[]>;
  send<T>(method: 'POST' | 'PATCH' | 'DELETE', path: string, operation: string, json?: unknown): Promise<T>;
}

export function createGitHubClient(options: HostOptions): GitHubApi {
  const host = createHostClient(options);
  const request = (req: ApiRequest) => host.send(req);
  return {
    async get<T>(path: string, operation: string, searchParams?: Record<string, string>) {
      return (await request({ method: 'GET', path, operation, ...(searchParams ? { searchParams } : {}) })) as T;
    },
    async list<T>(path: string, operation: string, { searchParams = {}, key, maxPages }: { searchParams?: Record<string, string>; key?: string; maxPages: number }) {
      const items: T[] = [];
      for (let page = 1; page <= maxPages; page += 1) {
        const answer = await request({ method: 'GET', path, operation, searchParams: { ...searchParams, per_page: String(PAGE_SIZE), page: String(page) } });
        const pageItems = key === undefined ? answer : (answer as Record<string, unknown> | null)?.[key];
        if (!Array.isArray(pageItems)) throw new UserError(`${operation} failed: GitHub answered something other than a list`);
        items.push(...(pageItems as T[]));
        if (pageItems.length < PAGE_SIZE) break;
      }
      return items;
    },
    async send<T>(method: 'POST' | 'PATCH' | 'DELETE', path: string, operation: string, json?: unknown) {
      return (await request({ method, path, operation, ...definedFields({ json }) })) as T;
    },
  };
}

/** `owner/name` as GitHub allows it, so it can go into a request path as it is. */
export function checkedRepository(value: string | undefined): string {
  if (value === undefined || !/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(value) || value.split('/').some((part) => part === '.' || part === '..')) {
    throw new UserError(`${GITHUB_REPOSITORY_VARIABLE} must name the repository as owner/name (GitHub Actions sets it)`);
  }
  return value;
}

/** A branch name as a path below `git/ref/heads/`: each segment encoded, the slashes kept. */
export function branchPath(branch: string): string {
  return branch.split('/').map(encodeURIComponent).join('/');
}
