import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveChromium, launchChromium, type Browser } from "../support/browser.ts";
import { api, createDeveloper, startTestApp, type TestApp } from "../support/harness.ts";

const journeyTimeoutMs = 90_000;

/**
 * The billing page's monthly top-up, saved card and automatic top-up, driven in a real browser through the
 * embedded provider's pages. (The sign-up journey and one-off top-ups are in portal.e2e.test.ts.)
 */
describe.skipIf(!haveChromium)("billing in the portal: monthly top-up, saved card, automatic top-up", () => {
  let app: TestApp;
  let browser: Browser | undefined;
  let page: Page;
  let key = "";
  const pageErrors: string[] = [];

  const screenshot = (name: string) => browser!.screenshot(name);

  async function openBilling(): Promise<void> {
    const url = `${app.baseUrl}/#/billing`;
    if (page.url() === url) await page.reload();
    else await page.goto(url);
    await page.locator('main[data-route="/billing"]:not([aria-busy])').waitFor();
  }

  async function payOnProviderPage(cardNumber: string): Promise<void> {
    await page.waitForURL(/\/_pay\/checkout\//);
    await page.locator('input[name="cardNumber"]').fill(cardNumber);
    await page.locator('form [type="submit"]').first().click();
    await page.waitForLoadState("load");
  }

  async function balanceShows(text: string): Promise<void> {
    await expect
      .poll(
        async () => {
          await openBilling();
          return page.locator("#balance").textContent();
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(text);
  }

  beforeAll(async () => {
    app = await startTestApp();
    const developer = await createDeveloper(app);
    key = developer.key;
    browser = await launchChromium("syllabi-billing-chromium");
    const { context } = browser;
    // The developer's browser session: the platform's own cookies, as signing in would set them.
    await context.addCookies(
      ["syllabi_session", "csrf_token"].map((name) => ({
        name,
        value: developer.client.cookie(name) ?? "",
        url: app.baseUrl,
      })),
    );
    page = browser.page;
    page.setDefaultTimeout(15_000);
    page.on("pageerror", (error) => pageErrors.push(error.message));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it(
    "starts a monthly top-up through the checkout and renews it",
    { timeout: journeyTimeoutMs },
    async () => {
      await openBilling();
      await page.getByLabel("Amount each month").selectOption("1000");
      await page.getByRole("button", { name: "Start monthly top-up" }).click();
      await page.getByRole("heading", { name: "Monthly top-up" }).waitFor();
      await payOnProviderPage("4242424242424242");
      await balanceShows("£10.00");
      const summary = (await page.locator("#subscription-summary").textContent()) ?? "";
      expect(summary).toMatch(/Active\s*£10\.00 a month, next on/);
      await screenshot("billing-monthly");

      await page.getByRole("link", { name: "Open in the test payment processor (renew now)" }).click();
      await page.waitForURL(/\/_pay\/subscriptions\//);
      await page.getByRole("button", { name: /Renew now/ }).click();
      await page.getByText("Renewed: the next month was charged and credited.").waitFor();
      await balanceShows("£20.00");
    },
  );

  it(
    "saves a card, switches automatic top-up on, and shows why it was switched off after a decline",
    { timeout: journeyTimeoutMs },
    async () => {
      await openBilling();
      await page.getByRole("button", { name: "Save a card" }).click();
      await page.getByRole("heading", { name: "Save a card" }).waitFor();
      // This test card can be saved but is declined whenever it is charged.
      await payOnProviderPage("4000000000000341");
      await expect
        .poll(
          async () => {
            await openBilling();
            return page.locator("#saved-card").textContent();
          },
          { timeout: 30_000, interval: 500 },
        )
        .toContain("ending 0341");

      await page.getByLabel("Top up automatically when the balance runs low").check();
      await page.getByLabel("When the balance falls below (£)").fill("50.00");
      await page.getByRole("button", { name: "Save automatic top-up" }).click();
      await page.getByText("Automatic top-up saved.").waitFor();
      expect(await page.locator("#auto-status").textContent()).toContain("below £50.00, £10.00 is added");

      // A paid call leaves the balance below £50: the saved card is charged, and declined.
      const aligned = await api(app, key, "POST", "/api/v1/align", {
        subjectId: "aqa-gcse-biology-8461",
        text: "enzymes and temperature",
      });
      expect(aligned.status).toBe(200);
      await app.runtime.billing.autoTopUp.drain();
      await openBilling();
      const switchedOff = page.locator("#auto-top-up .notice.error");
      await switchedOff.waitFor();
      expect(await switchedOff.textContent()).toMatch(
        /Automatic top-up was switched off on .+ because your saved card was refused: The card was declined \(card_declined\)\. Manual top-ups still work\./,
      );
      expect(await page.getByLabel("Top up automatically when the balance runs low").isChecked()).toBe(false);
      expect(await page.locator("#auto-status").textContent()).toBe("Automatic top-up is off.");
      expect(await page.locator("#topups-table").textContent()).toMatch(/Automatic.*Declined/);
      await screenshot("billing-auto-top-up-switched-off");

      // Manual top-ups keep working.
      await page.getByRole("button", { name: "Top up £10.00" }).click();
      await payOnProviderPage("4242424242424242");
      await balanceShows("£29.99");
    },
  );

  it("cancels the monthly top-up", { timeout: journeyTimeoutMs }, async () => {
    await openBilling();
    await page.getByRole("button", { name: "Cancel monthly top-up" }).click();
    await page.getByText("Monthly top-up cancelled.").waitFor();
    expect(await page.getByRole("button", { name: "Start monthly top-up" }).isVisible()).toBe(true);
    expect(await page.getByText("Your monthly top-up of £10.00 was cancelled.").isVisible()).toBe(true);
    expect(pageErrors).toEqual([]);
  });
});
