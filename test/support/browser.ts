import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { chromiumBinary, REPO_ROOT, waitFor } from 'dev-services';

/** Where the browser suites keep their screenshots (git-ignored): `test-artifacts/<suite>/<case>.png`. */
export const ARTIFACTS_DIR = join(REPO_ROOT, 'test-artifacts');

// Quiet and self-contained: no GPU, no network of its own, no first-run or sync pages.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-quic',
  '--no-first-run',
  '--disable-sync',
];

/** Debian's headless Chromium, driven by playwright-core, with a fresh profile; `close()` removes it. */
export class HeadlessBrowser {
  private constructor(
    readonly context: BrowserContext,
    private readonly profileDir: string,
  ) {}

  static async launch(): Promise<HeadlessBrowser> {
    const profileDir = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
    const context = await chromium.launchPersistentContext(profileDir, {
      executablePath: chromiumBinary(),
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 860 },
      timeout: 60_000,
    });
    return new HeadlessBrowser(context, profileDir);
  }

  /** A new tab on `url`. */
  async open(url: string): Promise<Page> {
    const page = await this.context.newPage();
    await page.goto(url);
    return page;
  }

  async close(): Promise<void> {
    await this.context.close();
    rmSync(this.profileDir, { recursive: true, force: true });
  }
}

/** Saves a full-page screenshot as `test-artifacts/<suite>/<name>.png` and returns its path. */
export async function keepScreenshot(page: Page, suite: string, name: string): Promise<string> {
  const dir = join(ARTIFACTS_DIR, suite);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Waits until the text of `locator` matches `expected` (a string: equal after trimming), failing after `timeoutMs`. */
export async function waitForText(
  locator: Locator,
  expected: string | RegExp,
  what: string,
  timeoutMs = 15_000,
): Promise<string> {
  return waitFor(
    async () => {
      const text = ((await locator.textContent({ timeout: 1_000 })) ?? '').trim();
      return (typeof expected === 'string' ? text === expected : expected.test(text))
        ? text
        : undefined;
    },
    what,
    timeoutMs,
    50,
  );
}
