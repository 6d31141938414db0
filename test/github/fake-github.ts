// A fake GitHub REST API on loopback HTTPS, for the `botrules github` commands: the
// repository, branch and tag refs over a small commit graph, workflow runs and their
// artifacts, and issue comments. It answers the endpoints those commands call, records every
// request with its Authorization header, and answers 404 to anything else.
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { sharedCertificate } from '../helpers/emulator.js';
import { tempDir } from '../helpers/temp.js';

export const REPO = { id: 101, full_name: 'acme/rules', default_branch: 'main' };
export const FORK = { id: 202, full_name: 'mallory/rules' };

export interface FakeRun {
  id: number;
  event: string;
  path: string;
  head_sha: string;
  head_branch: string;
  repository: { id: number; full_name: string };
  head_repository: { id: number; full_name: string } | null;
}

export interface FakeArtifact {
  id: number;
  name: string;
  size_in_bytes: number;
  expired: boolean;
  workflow_run: { id: number; head_sha: string; head_branch: string; head_repository_id?: number };
}

export interface FakeComment {
  id: number;
  body: string;
  user: { login: string; type: string };
}

export interface FakePull {
  number: number;
  state: string;
  title: string;
  body: string;
  user: { login: string };
  head: { ref: string; repo: { full_name: string } };
  base: { ref: string };
  labels: { name: string }[];
}

export interface FakeIssue {
  number: number;
  state: string;
  state_reason?: string;
  title: string;
  body: string;
  user: { login: string };
  labels: { name: string }[];
  pull_request?: unknown;
}

export interface FakeGitHub {
  env: Record<string, string>;
  requests: string[];
  authorizations: string[];
  /** Commit → parents; `heads` and `tags` name commits. */
  commits: Map<string, string[]>;
  heads: Map<string, string>;
  tags: Map<string, string>;
  runs: Map<number, FakeRun>;
  /** Newest first, as GitHub lists them. */
  artifacts: FakeArtifact[];
  comments: Map<number, FakeComment[]>;
  pulls: FakePull[];
  issues: FakeIssue[];
  labels: Set<string>;
  deletedRefs: string[];
  close(): Promise<void>;
}

export const sha = (label: string): string => Buffer.from(label).toString('hex').padEnd(40, '0').slice(0, 40);

export async function startFakeGitHub(): Promise<FakeGitHub> {
  const pair = await sharedCertificate();
  const dir = tempDir('botrules-fake-github-');
  const caPath = path.join(dir, 'ca.pem');
  writeFileSync(caPath, pair.cert);
  let nextCommentId = 9000;
  const state = {
    requests: [] as string[],
    authorizations: [] as string[],
    commits: new Map<string, string[]>(),
    heads: new Map<string, string>(),
    tags: new Map<string, string>(),
    runs: new Map<number, FakeRun>(),
    artifacts: [] as FakeArtifact[],
    comments: new Map<number, FakeComment[]>(),
    pulls: [] as FakePull[],
    issues: [] as FakeIssue[],
    labels: new Set<string>(),
    deletedRefs: [] as string[],
  };
  const field = (body: unknown, name: string): unknown => (body as Record<string, unknown> | undefined)?.[name];

  const ancestors = (start: string): Set<string> => {
    const seen = new Set<string>();
    const todo = [start];
    while (todo.length > 0) {
      const next = todo.pop() as string;
      if (seen.has(next)) continue;
      seen.add(next);
      todo.push(...(state.commits.get(next) ?? []));
    }
    return seen;
  };

  const routes: [string, RegExp, (match: RegExpExecArray, url: URL, body: unknown) => [number, unknown]][] = [
    ['GET', /^\/repos\/acme\/rules$/, () => [200, REPO]],
    ['GET', /^\/repos\/acme\/rules\/git\/ref\/heads\/(.+)$/, (m) => {
      const target = state.heads.get(decodeURIComponent(m[1] ?? ''));
      return target ? [200, { ref: `refs/heads/${m[1]}`, object: { sha: target, type: 'commit' } }] : [404, { message: 'Not Found' }];
    }],
    ['GET', /^\/repos\/acme\/rules\/actions\/artifacts$/, (_m, url) => {
      const named = state.artifacts.filter((a) => a.name === url.searchParams.get('name'));
      return [200, { total_count: named.length, artifacts: page(named, url) }];
    }],
    ['GET', /^\/repos\/acme\/rules\/actions\/runs\/(\d+)$/, (m) => {
      const run = state.runs.get(Number(m[1]));
      return run ? [200, run] : [404, { message: 'Not Found' }];
    }],
    ['GET', /^\/repos\/acme\/rules\/compare\/([0-9a-f]{40})\.\.\.([0-9a-f]{40})$/, (m) => {
      const [base, head] = [m[1] ?? '', m[2] ?? ''];
      if (!state.commits.has(base) || !state.commits.has(head)) return [404, { message: 'Not Found' }];
      const ofHead = ancestors(head);
      const ofBase = ancestors(base);
      const status = base === head ? 'identical' : ofHead.has(base) ? 'ahead' : ofBase.has(head) ? 'behind' : 'diverged';
      // Enough for the commands: the merge base is exact whenever one side contains the other.
      const mergeBase = status === 'behind' ? head : status === 'diverged' ? ([...ofHead].find((c) => ofBase.has(c)) ?? '') : base;
      return [200, { status, merge_base_commit: { sha: mergeBase }, commits: [], files: [] }];
    }],
    ['GET', /^\/repos\/acme\/rules\/issues\/(\d+)\/comments$/, (m, url) => [200, page(state.comments.get(Number(m[1])) ?? [], url)]],
    ['POST', /^\/repos\/acme\/rules\/issues\/(\d+)\/comments$/, (m, _url, body) => {
      const comment = { id: (nextCommentId += 1), body: String((body as { body?: string }).body), user: { login: 'github-actions[bot]', type: 'Bot' } };
      state.comments.set(Number(m[1]), [...(state.comments.get(Number(m[1])) ?? []), comment]);
      return [201, comment];
    }],
    ['PATCH', /^\/repos\/acme\/rules\/issues\/comments\/(\d+)$/, (m, _url, body) => {
      const comment = [...state.comments.values()].flat().find((c) => c.id === Number(m[1]));
      if (!comment) return [404, { message: 'Not Found' }];
      comment.body = String((body as { body?: string }).body);
      return [200, comment];
    }],
    ['GET', /^\/repos\/acme\/rules\/pulls$/, (_m, url) => {
      const [owner, ref] = (url.searchParams.get('head') ?? ':').split(':');
      const open = state.pulls.filter((p) => p.state === url.searchParams.get('state') && p.head.ref === ref && p.head.repo.full_name.startsWith(`${owner}/`));
      return [200, page(open, url)];
    }],
    ['POST', /^\/repos\/acme\/rules\/pulls$/, (_m, _url, body) => {
      const pull: FakePull = {
        number: 7 + state.pulls.length, state: 'open', title: String(field(body, 'title')), body: String(field(body, 'body')),
        user: { login: 'github-actions[bot]' }, head: { ref: String(field(body, 'head')), repo: { full_name: REPO.full_name } }, base: { ref: String(field(body, 'base')) }, labels: [],
      };
      state.pulls.push(pull);
      return [201, pull];
    }],
    ['PATCH', /^\/repos\/acme\/rules\/pulls\/(\d+)$/, (m, _url, body) => {
      const pull = state.pulls.find((p) => p.number === Number(m[1]));
      if (!pull) return [404, { message: 'Not Found' }];
      if (field(body, 'body') !== undefined) pull.body = String(field(body, 'body'));
      if (field(body, 'state') !== undefined) pull.state = String(field(body, 'state'));
      return [200, pull];
    }],
    ['POST', /^\/repos\/acme\/rules\/labels$/, (_m, _url, body) => {
      const name = String(field(body, 'name'));
      if (state.labels.has(name)) return [422, { message: 'Validation Failed' }];
      state.labels.add(name);
      return [201, { name }];
    }],
    ['POST', /^\/repos\/acme\/rules\/issues\/(\d+)\/labels$/, (m, _url, body) => {
      const pull = state.pulls.find((p) => p.number === Number(m[1]));
      if (!pull) return [404, { message: 'Not Found' }];
      pull.labels.push(...(field(body, 'labels') as string[]).map((name) => ({ name })));
      return [200, pull.labels];
    }],
    ['GET', /^\/repos\/acme\/rules\/issues$/, (_m, url) => {
      const wanted = (url.searchParams.get('labels') ?? '').split(',').filter(Boolean);
      const creator = url.searchParams.get('creator');
      const found = state.issues.filter((i) => i.state === url.searchParams.get('state') && (creator === null || i.user.login === creator) && wanted.every((name) => i.labels.some((l) => l.name === name)));
      return [200, page(found, url)];
    }],
    ['POST', /^\/repos\/acme\/rules\/issues$/, (_m, _url, body) => {
      const issue: FakeIssue = {
        number: 40 + state.issues.length, state: 'open', title: String(field(body, 'title')), body: String(field(body, 'body')),
        user: { login: 'github-actions[bot]' }, labels: ((field(body, 'labels') as string[] | undefined) ?? []).map((name) => ({ name })),
      };
      state.issues.push(issue);
      return [201, issue];
    }],
    ['PATCH', /^\/repos\/acme\/rules\/issues\/(\d+)$/, (m, _url, body) => {
      const issue = state.issues.find((i) => i.number === Number(m[1]));
      if (!issue) return [404, { message: 'Not Found' }];
      for (const key of ['body', 'state', 'state_reason'] as const) if (field(body, key) !== undefined) issue[key] = String(field(body, key));
      return [200, issue];
    }],
    ['DELETE', /^\/repos\/acme\/rules\/git\/refs\/heads\/(.+)$/, (m) => {
      state.deletedRefs.push(decodeURIComponent(m[1] ?? ''));
      return [204, ''];
    }],
  ];

  const handle = (req: IncomingMessage, res: ServerResponse, text: string) => {
    const url = new URL(req.url ?? '/', 'https://fake.invalid');
    state.requests.push(`${req.method} ${url.pathname}${url.search}`);
    state.authorizations.push(req.headers.authorization ?? '');
    for (const [method, pattern, answer] of routes) {
      const match = pattern.exec(url.pathname);
      if (method !== req.method || !match) continue;
      const [status, body] = answer(match, url, text === '' ? undefined : JSON.parse(text));
      res.writeHead(status, status === 204 ? {} : { 'content-type': 'application/json' });
      res.end(status === 204 ? undefined : JSON.stringify(body));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: 'Not Found' }));
  };

  const server: Server = createServer({ key: pair.key, cert: pair.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    ...state,
    env: { GITHUB_API_URL: `https://127.0.0.1:${port}`, GITHUB_REPOSITORY: REPO.full_name, GH_TOKEN: 'workflow-token-7f3a', NODE_EXTRA_CA_CERTS: caPath },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

function page<T>(items: T[], url: URL): T[] {
  const perPage = Number(url.searchParams.get('per_page') ?? 30);
  const number = Number(url.searchParams.get('page') ?? 1);
  return items.slice((number - 1) * perPage, number * perPage);
}
