// conformance compare: three runs of the reference server — clean, with one fault, with another — become one
// matrix in which exactly the requirements the faults break differ, as Markdown and as a page in Chromium.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.ts';

const root = mkdtempSync(join(tmpdir(), 'compare-'));
const io = () => { let out = ''; return { io: { out: { write: (s: string) => (out += s) }, err: { write: (s: string) => (out += s) }, env: { CI: 'true' }, isTTY: false }, out: () => out }; };
const reports: string[] = [];

beforeAll(async () => {
  for (const [name, fault] of [['clean', undefined], ['list-object', 'model-list-object-wrong'], ['stale-cache', 'model-retrieve-stale-subset']] as const) {
    const dir = join(root, name);
    await main(['run', '--suite', 'models', '--fuzz-runs', '0', '--seed', '8', '--report-dir', dir, ...(fault ? ['--fault', fault] : [])], io().io);
    reports.push(join(dir, 'report.json'));
  }
}, 120_000);

describe('conformance compare', () => {
  it('writes a matrix whose differing requirements are the ones the faults break', async () => {
    const x = io();
    expect(await main(['compare', ...reports, '--name', 'clean', '--name', 'list-object', '--name', 'stale-cache', '--report-dir', join(root, 'out')], x.io)).toBe(0);
    const md = readFileSync(join(root, 'out', 'compare.md'), 'utf8');
    const differing = md.split('## All requirements')[0]!.split('\n').filter((l) => l.startsWith('| `'));
    const ids = differing.map((l) => /`([^`]+)`/.exec(l)![1]);
    expect(ids).toEqual(expect.arrayContaining(['RES-MODEL-LIST', 'MODEL-RETRIEVE'])); // a list object of the wrong kind breaks the list's shape (its schema's rule)
    expect(differing.find((l) => l.includes('`MODEL-RETRIEVE`'))).toMatch(/\| ✔ pass \| ✔ pass \| ✖ FAIL \|$/);
    expect(x.out()).toMatch(/3 implementations, \d+ requirements, \d+ on which they differ/);
  });

  it('the HTML matrix opens in Chromium with the same differences, without the network', { timeout: 60_000 }, async (ctx) => {
    if (!existsSync(CHROMIUM)) { if (process.env.CONFORMANCE_REQUIRE_SHARED) throw new Error(`${CHROMIUM} is missing`); ctx.skip(); }
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      const outside: string[] = [];
      page.on('request', (r) => { if (!r.url().startsWith('file:')) outside.push(r.url()); });
      await page.goto(pathToFileURL(join(root, 'out', 'compare.html')).href);
      await expect(page.locator('h2').first().textContent()).resolves.toMatch(/differ \(\d+\)/);
      await expect(page.locator('table').nth(1).textContent()).resolves.toContain('MODEL-RETRIEVE');
      expect(outside).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('one report is a usage error', async () => {
    expect(await main(['compare', reports[0]!], io().io)).toBe(2);
  });
});
