// The pager against an in-memory page source (a plain function, not an HTTP mock): the
// situations the emulator cannot produce on demand (the set changing between pages,
// duplicates, a failing page among concurrent ones). The cap is also tested end to end.
import { RemoteError } from '../../src/errors.js';
import { fetchInventory, type PageSource } from '../../src/scripts/fetch.js';
import { splitRange } from '../../src/scripts/paging.js';
import { rememberedIdentity } from '../../src/scripts/records.js';
import type { ScriptQuery, ScriptRecord } from '../../src/scripts/model.js';

const QUERY = { appId: ['app'], tld: ['example.com'], from: 1_000, to: 2_000 };

function records(n: number, prefix = 'k'): ScriptRecord[] {
  return Array.from({ length: n }, (_, i) => ({ key: `${prefix}${String(i).padStart(5, '0')}`, id: `https://cdn.example/${i}.js` }));
}

interface FakeServer {
  source: PageSource;
  requests: ScriptQuery[];
  data: ScriptRecord[];
}

/** Serves `data` by skip/take, at most `cap` records per page, `count` = the current length. */
function fakeServer(data: ScriptRecord[], options: { cap?: number | ((request: number) => number); beforeRequest?: (n: number, data: ScriptRecord[]) => void } = {}): FakeServer {
  const server: FakeServer = { data, requests: [], source: async () => ({ paging: { previous: '', current: '', next: '', count: 0 }, data: [] }) };
  server.source = async (query) => {
    server.requests.push(query);
    options.beforeRequest?.(server.requests.length, server.data);
    await new Promise((r) => setImmediate(r));
    const cap = typeof options.cap === 'function' ? options.cap(server.requests.length) : options.cap;
    const take = Math.min(query.take, cap ?? Infinity);
    return { paging: { previous: '', current: '', next: '', count: server.data.length }, data: server.data.slice(query.skip, query.skip + take) };
  };
  return server;
}

async function collect(source: PageSource, options: { pageSize?: number; concurrency?: number } = {}) {
  const got: ScriptRecord[] = [];
  const summary = await fetchInventory(source, QUERY, {
    pageSize: options.pageSize ?? 10,
    concurrency: options.concurrency ?? 4,
    onRecords: (page) => void got.push(...page),
  });
  return { got, summary };
}

const keys = (list: ScriptRecord[]) => list.map((r) => r.key).sort();

describe('fetchInventory', () => {
  it('fetches every page once, sending the same window on each', async () => {
    const server = fakeServer(records(95));
    const { got, summary } = await collect(server.source);
    expect(keys(got)).toEqual(keys(server.data));
    expect(summary).toMatchObject({ count: 95, reportedCount: 95, requests: 10, duplicates: 0, warnings: [] });
    expect(summary.takeCap).toBeUndefined();
    expect(server.requests.map((q) => q.skip).sort((a, b) => a - b)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    for (const q of server.requests) expect(q).toMatchObject({ ...QUERY, take: q.skip === 90 ? 5 : 10 });
  });

  it('makes one request for an empty inventory', async () => {
    const server = fakeServer([]);
    const { got, summary } = await collect(server.source);
    expect(got).toEqual([]);
    expect(summary).toMatchObject({ count: 0, requests: 1, warnings: [] });
  });

  it('adapts to a server that caps take, without losing or repeating records', async () => {
    const server = fakeServer(records(230), { cap: 25 });
    const { got, summary } = await collect(server.source, { pageSize: 100 });
    expect(got).toHaveLength(230);
    expect(keys(got)).toEqual(keys(server.data));
    expect(summary).toMatchObject({ count: 230, takeCap: 25, duplicates: 0, warnings: [] });
    // After the first short page every request asks for the cap.
    expect(server.requests.slice(1).every((q) => q.take <= 25)).toBe(true);
    expect(server.requests).toHaveLength(Math.ceil(230 / 25));
  });

  it('fills the gaps when a cap shows up only on a later page', async () => {
    // A server that starts capping under load: the first page is whole, later ones are short.
    const server = fakeServer(records(100), { cap: (n) => (n === 1 ? Infinity : 7) });
    const { got, summary } = await collect(server.source, { pageSize: 20, concurrency: 3 });
    expect(got).toHaveLength(100);
    expect(keys(got)).toEqual(keys(server.data));
    expect(summary).toMatchObject({ takeCap: 7, duplicates: 0, warnings: [] });
  });

  it('fetches records added at the end while paging and says the count changed', async () => {
    const server = fakeServer(records(50), {
      beforeRequest: (n, data) => {
        if (n === 3) data.push(...records(15, 'z'));
      },
    });
    const { got, summary } = await collect(server.source, { concurrency: 1 });
    expect(keys(got)).toEqual(keys(server.data));
    expect(summary.count).toBe(65);
    expect(summary.warnings).toHaveLength(1);
    expect(summary.warnings[0]).toMatch(/inventory changed while paging: the server's count went from 50 to 65/);
  });

  it('de-duplicates records that shift onto the next page when one is inserted in front', async () => {
    const server = fakeServer(records(30), {
      beforeRequest: (n, data) => {
        if (n === 2) data.unshift({ key: 'a-new', id: 'https://cdn.example/new.js' });
      },
    });
    const { got, summary } = await collect(server.source, { concurrency: 1 });
    const delivered = keys(got);
    expect(new Set(delivered).size).toBe(delivered.length);
    expect(summary.duplicates).toBeGreaterThan(0);
    expect(summary.warnings.some((w) => /duplicate record/.test(w))).toBe(true);
    expect(summary.warnings.some((w) => /count went from 30 to 31/.test(w))).toBe(true);
  });

  it('de-duplicates by key, and by location, app and host for records without a key', async () => {
    const data: ScriptRecord[] = [
      { key: 'same', id: 'a' },
      { key: 'same', id: 'b' },
      { id: 'https://x/1.js', app_id: 'app', host_domain: 'h' },
      { id: 'https://x/1.js', app_id: 'app', host_domain: 'h' },
      { id: 'https://x/1.js', app_id: 'app', host_domain: 'other' },
    ];
    const { got, summary } = await collect(fakeServer(data).source, { pageSize: 2 });
    expect(got).toHaveLength(3);
    expect(summary.duplicates).toBe(2);
  });

  it('stops when the inventory shrinks while paging, with a warning', async () => {
    const server = fakeServer(records(40), {
      beforeRequest: (n, data) => {
        if (n === 2) data.splice(20);
      },
    });
    const { got, summary } = await collect(server.source, { concurrency: 1 });
    expect(got.length).toBe(20);
    expect(summary.warnings[0]).toMatch(/count went from 40 to 20/);
  });

  it('names the page that failed and stops asking for more pages', async () => {
    const server = fakeServer(records(200));
    const failing: PageSource = async (query) => {
      if (query.skip === 50) throw new RemoteError('the service answered 500', { operation: 'listing scripts', status: 500 });
      return server.source(query);
    };
    const delivered: ScriptRecord[] = [];
    const attempt = fetchInventory(failing, QUERY, { pageSize: 10, concurrency: 2, onRecords: (p) => void delivered.push(...p) });
    await expect(attempt).rejects.toThrow('the service answered 500 (page skip=50 take=10)');
    await expect(attempt).rejects.toMatchObject({ status: 500 });
    expect(server.requests.length).toBeLessThan(20);
  });

  it('reports progress as requests done out of requests planned', async () => {
    const progress: string[] = [];
    await fetchInventory(fakeServer(records(30)).source, QUERY, {
      pageSize: 10,
      concurrency: 1,
      onRecords: () => undefined,
      onProgress: ({ done, total }) => void progress.push(`${done}/${total}`),
    });
    expect(progress.at(-1)).toBe('3/3');
    expect(progress[0]).toBe('1/1');
  });

  it('keeps at most `concurrency` pages in flight and asks for them in order', async () => {
    const server = fakeServer(records(200));
    let inFlight = 0;
    let maxInFlight = 0;
    const counting: PageSource = async (query) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        return await server.source(query);
      } finally {
        inFlight -= 1;
      }
    };
    const { got } = await collect(counting, { pageSize: 10, concurrency: 3 });
    expect(got).toHaveLength(200);
    expect(maxInFlight).toBe(3);
    expect(server.requests.map((q) => q.skip)).toEqual(Array.from({ length: 20 }, (_, i) => i * 10));
  });

  it('never runs two deliveries at once, so a streamed file is written page by page', async () => {
    let active = 0;
    let maxActive = 0;
    await fetchInventory(fakeServer(records(100)).source, QUERY, {
      pageSize: 10,
      concurrency: 4,
      onRecords: async () => {
        active += 1;
        maxActive = Math.max(maxActive, active);
        await new Promise((r) => setTimeout(r, 1));
        active -= 1;
      },
    });
    expect(maxActive).toBe(1);
  });
});

describe('splitRange', () => {
  it('covers the range with consecutive pieces', () => {
    expect([...splitRange({ start: 5, end: 27 }, 10)]).toEqual([
      { start: 5, end: 15 },
      { start: 15, end: 25 },
      { start: 25, end: 27 },
    ]);
    expect([...splitRange({ start: 5, end: 5 }, 10)]).toEqual([]);
  });
});

describe('bounded memory under a hostile gateway', () => {
  it('remembers a long identity by a digest of fixed size, and tells distinct ones apart', () => {
    const long = 'k'.repeat(1024 * 1024);
    expect(rememberedIdentity(long)).toMatch(/^#[A-Za-z0-9+/]{22}$/);
    expect(rememberedIdentity(`${long}x`)).not.toBe(rememberedIdentity(long));
    expect(rememberedIdentity('short-key')).toBe('=short-key');
    // A short identity that looks like a digest stays apart from the digest itself.
    expect(rememberedIdentity(rememberedIdentity(long).slice(1))).not.toBe(rememberedIdentity(long));
  });

  it('drops a duplicate of a megabyte key as it does a short one', async () => {
    const key = 'k'.repeat(1024 * 1024);
    const server = fakeServer([{ key, id: 'a' }, { key, id: 'b' }, { key: 'other', id: 'c' }]);
    const { got, summary } = await collect(server.source, { pageSize: 1, concurrency: 1 });
    expect(got.map((r) => r.id)).toEqual(['a', 'c']);
    expect(summary.duplicates).toBe(1);
  });

  it('refuses an export past the record cap and asks for no more pages', async () => {
    const server = fakeServer(records(100));
    const delivered: ScriptRecord[] = [];
    const run = fetchInventory(server.source, QUERY, { pageSize: 10, concurrency: 1, maxRecords: 35, onRecords: (page) => void delivered.push(...page) });
    await expect(run).rejects.toThrow('the script inventory sent more than 35 distinct records, the most botrules takes in one export; nothing more was requested');
    expect(server.requests.length).toBe(4);
    expect(delivered.length).toBe(30);
  });
});
