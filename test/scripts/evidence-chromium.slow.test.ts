// The evidence report in a real browser: headless Chromium renders the quarter's pack
// (evidence-series.ts) at 1280×800, and the first screen, read from the screenshot and from
// the DOM, shows the verdict, the gap and the unapproved scripts. Skips, saying why, only
// where no Chromium binary can be had (.ci/run installs Debian's `chromium` where it can).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runCli } from '../helpers/cli.js';
import { decodePng } from '../helpers/png.js';
import { describeUnless, findProgram } from '../helpers/programs.js';
import { PLANTED_URL, simulateQuarter, type Quarter } from './evidence-series.js';

const run = promisify(execFile);
const CANDIDATES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'];
const chromium = findProgram(...(process.env.BOTRULES_CHROMIUM ? [process.env.BOTRULES_CHROMIUM] : CANDIDATES));
const noChromium = chromium === undefined
  ? `no Chromium (${process.env.BOTRULES_CHROMIUM ? `BOTRULES_CHROMIUM=${process.env.BOTRULES_CHROMIUM} is not an executable file` : `none of ${CANDIDATES.join(', ')} on PATH`}); install Debian's chromium package or set BOTRULES_CHROMIUM`
  : undefined;

let quarter: Quarter;
let work: string;

async function browse(file: string, output: string[]): Promise<string> {
  const profile = await mkdtemp(join(work, 'profile-'));
  const { stdout } = await run(chromium ?? 'chromium', [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run',
    `--user-data-dir=${profile}`, '--window-size=1280,800', '--hide-scrollbars', ...output, `file://${file}`,
  ], { timeout: 90_000, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** Measures where the first-screen parts are (a copy of the page with a measuring script; the report itself has none). */
const MEASURE = `<script>
const box = (sel) => { const b = document.querySelector(sel).getBoundingClientRect(); return { top: b.top, bottom: b.bottom }; };
const out = document.createElement('pre');
out.id = 'layout';
out.textContent = JSON.stringify({
  viewport: window.innerHeight, verdict: box('#verdict'), gaps: box('#gaps'), unapproved: box('#unapproved'),
  heading: document.querySelector('h1').innerText, gapItems: [...document.querySelectorAll('#gaps li')].map((li) => ({ text: li.innerText, bottom: li.getBoundingClientRect().bottom })),
  rows: [...document.querySelectorAll('#unapproved tbody tr')].map((tr) => ({ cells: [...tr.cells].map((td) => td.innerText), bottom: tr.getBoundingClientRect().bottom })),
});
document.body.appendChild(out);
</script>`;

describeUnless(noChromium, 'the evidence report in headless Chromium', () => {
  beforeAll(async () => {
    quarter = await simulateQuarter();
    work = await mkdtemp(join(tmpdir(), 'botrules-chromium-'));
    const result = await runCli(['scripts', 'evidence', 'series', '--from', '2026-01-05', '--to', '2026-04-05', '--out', 'pack.html'], { cwd: quarter.cwd, now: () => Date.parse('2026-04-06T08:00:00Z') });
    expect(result.code).toBe(2);
  }, 120_000);
  afterAll(async () => {
    await quarter?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('shows the verdict, the gap and the unapproved scripts on the first screen (DOM)', async () => {
    const page = await readFile(join(quarter.cwd, 'pack.html'), 'utf8');
    const measured = join(work, 'measured.html');
    await writeFile(measured, page.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '').replace('</body>', `${MEASURE}</body>`));
    const dom = await browse(measured, ['--dump-dom']);
    const layout = JSON.parse(/<pre id="layout">([^<]*)<\/pre>/.exec(dom)?.[1]?.replace(/&quot;/g, '"').replace(/&amp;/g, '&') ?? '{}') as {
      viewport: number; verdict: { bottom: number }; gaps: { top: number }; unapproved: { top: number }; heading: string;
      gapItems: { text: string; bottom: number }[]; rows: { cells: string[]; bottom: number }[];
    };
    // The visible height (the window less what headless keeps for its own frame) is the first screen.
    const screen = layout.viewport;
    expect(screen).toBeGreaterThan(600);
    expect(layout.heading).toBe('Verdict: FAIL');
    expect(layout.verdict.bottom).toBeLessThan(screen);
    expect(layout.gapItems.map((g) => g.text)).toEqual(['no snapshot in the interval 2026-02-16 to 2026-02-22: 14 days without one, from 2026-02-09T05:23:00.000Z to 2026-02-23T05:23:00.000Z, 7 days over the 7-day interval']);
    expect(layout.rows.map((r) => r.cells)).toEqual([
      [PLANTED_URL, 'high', 'unapproved'],
      [quarter.expiring.id, 'medium', 'approval expired 2026-02-20'],
    ]);
    for (const bottom of [...layout.gapItems, ...layout.rows].map((part) => part.bottom)) expect(bottom).toBeLessThan(screen);
  }, 120_000);

  it('renders the report itself, without JavaScript, as the DOM and the screenshot show', async () => {
    const file = join(quarter.cwd, 'pack.html');
    const dom = await browse(file, ['--dump-dom']);
    expect(dom).toContain('<h1>Verdict: FAIL</h1>');
    const shot = join(work, 'first-screen.png');
    await browse(file, [`--screenshot=${shot}`]);
    const image = decodePng(await readFile(shot));
    expect([image.width, image.height]).toEqual([1280, 800]);
    const share = (colour: [number, number, number], rows: [number, number]) => {
      let hits = 0;
      for (let y = rows[0]; y < rows[1]; y++) for (let x = 0; x < image.width; x++) if (image.pixel(x, y).every((c, i) => Math.abs(c - (colour[i] ?? 0)) <= 3)) hits++;
      return hits / ((rows[1] - rows[0]) * image.width);
    };
    // The failing verdict's banner fills most of the top; the missed week is a red cell of the calendar on the same screen.
    expect(share([0xfd, 0xec, 0xea], [0, 120])).toBeGreaterThan(0.4);
    expect(share([0xe5, 0x39, 0x35], [120, 800])).toBeGreaterThan(0.002);
  }, 120_000);
});
