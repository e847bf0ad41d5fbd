// Launching Debian's Chromium through playwright-core (no browser download).

import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
// --enable-unsafe-swiftshader: WebGL through the software renderer (the 3D torus view, issue 35),
// which newer Chromium no longer falls back to on its own.
const FLAGS = ['--no-sandbox', '--disable-gpu', '--enable-unsafe-swiftshader', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** A launched browser. */
export function launch() {
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
}

/** A new page that records console errors and page errors in `page.errors`. */
export async function newPage(browser, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, ...options });
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (m) => {
    // A 4xx answer is the API refusing something on purpose (an illegal move is 400 by design);
    // Chromium logs it, the page does not fail. Everything else counts.
    if (m.type() === 'error' && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(m.text())) page.errors.push(m.text());
  });
  page.on('pageerror', (e) => page.errors.push(String(e)));
  return page;
}

/** Clicks the centre of a board square by its name. */
export async function clickSquare(page, name) {
  await page.locator(`svg.board [data-square="${name}"]`).first().click();
}

/** Drags a piece from one square to another with the mouse. */
export async function dragSquare(page, from, to) {
  const a = await page.locator(`svg.board [data-square="${from}"]`).first().boundingBox();
  const b = await page.locator(`svg.board [data-square="${to}"]`).first().boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2 + a.width / 2, (a.y + b.y) / 2 + a.height / 2, { steps: 4 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 4 });
  await page.mouse.up();
}

/** The piece on a square as `owner:kind`, or null. */
export async function pieceOn(page, name) {
  return page.evaluate((n) => {
    const p = document.querySelector(`svg.board [data-square="${n}"] .piece`);
    return p ? `${p.dataset.owner}:${p.dataset.kind}` : null;
  }, name);
}

/**
 * Waits until `fn(arg)` is true in the page. (Playwright's waitForFunction evaluates a string,
 * which the server's Content-Security-Policy forbids; this polls with page.evaluate instead,
 * so the tests run under the real policy.)
 */
export async function waitUntil(page, fn, arg, { timeout = 30000 } = {}) {
  const end = Date.now() + timeout;
  for (;;) {
    if (await page.evaluate(fn, arg)) return;
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${String(fn).slice(0, 160)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
