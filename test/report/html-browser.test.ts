// report.html in a real browser: Debian's Chromium (/usr/bin/chromium) driven by playwright-core, which talks to
// an installed browser and never downloads one. A faulted run's report is opened from a file: the verdict, the
// failure and its rule are visible, a filter changes what is shown, nothing is fetched from the network, a
// response body that carries markup stays text, and a screenshot is taken.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../src/catalogue/load.ts';
import { main } from '../../src/cli/main.ts';
import { renderHtml } from '../../src/report/html/render.ts';
import type { Report } from '../../src/report/types.ts';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.ts';


function chromiumPresent(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CONFORMANCE_REQUIRE_SHARED) throw new Error(`${CHROMIUM} is missing and CONFORMANCE_REQUIRE_SHARED is set: .ci/run installs Debian's chromium`);
  console.log(`skipped: ${CHROMIUM} is not installed (apt-get install chromium; .ci/run does)`);
  return false;
}

const root = mkdtempSync(join(tmpdir(), 'html-'));
let browser: Browser | undefined;
let reportDir = '';

beforeAll(async () => {
  if (!chromiumPresent()) return;
  reportDir = join(root, 'faulted');
  const sink = { write: () => true };
  await main(['run', '--suite', 'images', '--suite', 'models', '--fault', 'image-n-11-accepted', '--fuzz-runs', '0', '--seed', '5', '--report-dir', reportDir], { out: sink, err: sink, env: { CI: 'true' }, isTTY: false });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  rmSync(root, { recursive: true, force: true });
});

describe.runIf(existsSync(CHROMIUM) || process.env.CONFORMANCE_REQUIRE_SHARED)('report.html in Chromium', () => {
  it('shows the verdict, the failure with its rule, and filters by status without the network', { timeout: 60_000 }, async () => {
    const page = await browser!.newPage();
    const outside: string[] = [];
    page.on('request', (r) => { if (!r.url().startsWith('file:')) outside.push(r.url()); });
    await page.goto(pathToFileURL(join(reportDir, 'report.html')).href);
    await expect(page.locator('h1.verdict').textContent()).resolves.toContain('FAIL');
    const failure = page.locator('#failures article.card').first();
    await expect(failure.isVisible()).resolves.toBe(true);
    await expect(failure.textContent()).resolves.toContain('IMG-GEN-N-RANGE-REJECT');
    await expect(failure.locator('q').first().textContent()).resolves.toMatch(/\S/); // the rule in the spec's words
    await expect(failure.locator('button.copy').isVisible()).resolves.toBe(true);

    const rows = page.locator('#results tbody tr');
    const visible = async () => rows.evaluateAll((els) => els.filter((e) => !(e as unknown as { hidden: boolean }).hidden).length);
    const all = await visible();
    await page.selectOption('select[name=status]', 'fail');
    const failed = await visible();
    expect(failed).toBeGreaterThan(0);
    expect(failed).toBeLessThan(all);
    await expect(page.locator('output[name=shown]').textContent()).resolves.toMatch(/\d+ shown/);
    await page.fill('input[name=q]', 'no-such-thing-anywhere');
    expect(await visible()).toBe(0);

    const shot = join(root, 'report.png');
    await page.screenshot({ path: shot, fullPage: false });
    expect(statSync(shot).size).toBeGreaterThan(10_000);
    expect(outside).toEqual([]);
    await page.close();
  });

  it('every link of the page leads somewhere: a coverage cell links to its results only when it has some', { timeout: 60_000 }, async () => {
    const page = await browser!.newPage();
    await page.goto(pathToFileURL(join(reportDir, 'report.html')).href);
    // A run of two suites leaves most requirements unexercised: their cells must not link to missing anchors.
    const hrefs = await page.locator('a[href^="#"]').evaluateAll((links) => links.map((a) => a.getAttribute('href')!.slice(1)));
    const ids = new Set(await page.locator('[id]').evaluateAll((els) => els.map((e) => e.id)));
    const broken = hrefs.filter((id) => !ids.has(id));
    expect(broken).toEqual([]);
    expect(await page.locator('a.cell').count()).toBeGreaterThan(0);
    expect(await page.locator('span.cell[data-status]').count()).toBeGreaterThan(0);
    // The count of what is shown never counts coverage cells, linked or not.
    await page.selectOption('select[name=status]', 'fail');
    const counted = await page.locator('[data-status]:not(.cell)').evaluateAll((els) => els.filter((e) => !(e as unknown as { hidden: boolean }).hidden).length);
    await expect(page.locator('output[name=shown]').textContent()).resolves.toBe(`${counted} shown`);
    await page.close();
  });

  it('a hostile response body stays text: no script of the target runs', { timeout: 60_000 }, async () => {
    const report = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as Report;
    const failed = report.results.find((r) => r.status === 'fail')!;
    failed.response = { status: 200, contentType: 'text/html', excerpt: '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">' };
    failed.message = '<b>not bold</b>';
    const file = join(root, 'hostile.html');
    writeFileSync(file, renderHtml(report, loadCatalogue()));
    const page = await browser!.newPage();
    await page.goto(pathToFileURL(file).href);
    expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await expect(page.locator('#failures').textContent()).resolves.toContain('<b>not bold</b>');
    await page.close();
  });

  it('is keyboard-usable: the filters and the copy button take focus', { timeout: 60_000 }, async () => {
    const page = await browser!.newPage();
    await page.goto(pathToFileURL(join(reportDir, 'report.html')).href);
    const focused: string[] = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      focused.push(await page.evaluate(() => (globalThis as unknown as { document: { activeElement?: { tagName: string } } }).document.activeElement?.tagName.toLowerCase() ?? ''));
    }
    expect(focused).toEqual(expect.arrayContaining(['select', 'input']));
    await page.close();
  });
});
