// report.html of a big run: 10,000 results (a real faulted run's results, repeated under other case names),
// rendered, then opened from a file in Debian's Chromium; the time until the page has loaded and its script has
// run is what a person waits for. npm run bench:html
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { loadCatalogue } from '../src/catalogue/load.ts';
import { main } from '../src/cli/main.ts';
import { renderHtml } from '../src/report/html/render.ts';
import type { Report } from '../src/report/types.ts';

const dir = mkdtempSync(join(tmpdir(), 'bench-html-'));
try {
  const sink = { write: () => true };
  await main(['run', '--fault', 'image-n-11-accepted', '--fault', 'stream-missing-done', '--fuzz-runs', '0', '--seed', '3', '--report-dir', dir], { out: sink, err: sink, env: { CI: 'true' }, isTTY: false });
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
  const base = report.results;
  const results = Array.from({ length: 10_000 }, (_, i) => ({ ...base[i % base.length]!, case: `${base[i % base.length]!.case}-${Math.floor(i / base.length)}` }));
  const big: Report = { ...report, results };
  const started = performance.now();
  const html = renderHtml(big, loadCatalogue());
  const renderMs = performance.now() - started;
  const file = join(dir, 'big.html');
  writeFileSync(file, html);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const page = await browser.newPage();
    const t = performance.now();
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    await page.waitForFunction(() => ((globalThis as unknown as { document: { querySelector(s: string): { value: string } | null } }).document.querySelector('output[name=shown]')?.value ?? '') !== '');
    times.push(performance.now() - t);
    await page.close();
  }
  await browser.close();
  times.sort((a, b) => a - b);
  console.log(`report.html with ${results.length} results (${(html.length / 1048576).toFixed(1)} MiB): rendered in ${renderMs.toFixed(0)} ms; loaded in Chromium in ${times.map((t) => `${(t / 1000).toFixed(2)} s`).join(', ')} (median ${(times[1]! / 1000).toFixed(2)} s; target < 2 s)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
