import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

/** Debian's chromium, which .ci/run installs; playwright-core drives it and downloads nothing. */
export const chromiumPath = "/usr/bin/chromium";
export const haveChromium = existsSync(chromiumPath);
export const screenshotDirectory = path.resolve("test-results/screenshots");

export interface Browser {
  context: BrowserContext;
  page: Page;
  screenshot(name: string): Promise<void>;
  close(): Promise<void>;
}

/** A headless chromium with a fresh profile (playwright takes the user-data-dir as a parameter, not a flag). */
export async function launchChromium(profilePrefix: string): Promise<Browser> {
  mkdirSync(screenshotDirectory, { recursive: true });
  const userDataDirectory = mkdtempSync(path.join(tmpdir(), `${profilePrefix}-`));
  const context = await chromium.launchPersistentContext(userDataDirectory, {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    screenshot: async (name) => {
      await page.screenshot({ path: path.join(screenshotDirectory, `${name}.png`), fullPage: true });
    },
    close: async () => {
      await context.close();
      rmSync(userDataDirectory, { recursive: true, force: true });
    },
  };
}
