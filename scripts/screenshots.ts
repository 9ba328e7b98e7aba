// Regenerates the README's pictures of report.html: a faulted run of the embedded reference server, opened in
// Debian's Chromium through playwright-core, shot at the top (verdict and first failure), at the coverage grid,
// and with the status filter on "FAIL". npm run screenshots
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { main } from '../src/cli/main.ts';
import { repoRoot } from '../src/util/paths.ts';

const dir = mkdtempSync(join(tmpdir(), 'screenshots-'));
const out = join(repoRoot, 'docs', 'images');
try {
  const sink = { write: () => true };
  await main(['run', '--suite', 'images', '--suite', 'chat-stream', '--suite', 'models', '--fault', 'image-n-11-accepted', '--fault', 'stream-missing-done', '--fuzz-runs', '0', '--seed', '1453', '--report-dir', dir], { out: sink, err: sink, env: { CI: 'true' }, isTTY: false });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1 });
  await page.goto(pathToFileURL(join(dir, 'report.html')).href);
  await page.screenshot({ path: join(out, 'report-top.png') });
  await page.locator('#coverage').scrollIntoViewIfNeeded();
  await page.locator('#coverage').screenshot({ path: join(out, 'report-coverage.png') });
  await page.selectOption('select[name=status]', 'fail');
  await page.locator('#results details.suite').first().evaluate((d) => { (d as unknown as { open: boolean }).open = true; });
  await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
  await page.screenshot({ path: join(out, 'report-filtered.png') });
  await browser.close();
  console.log(`written: ${['report-top.png', 'report-coverage.png', 'report-filtered.png'].map((f) => join(out, f)).join(', ')}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
