import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseFlags, postChangelog } from "../../src/operator/operator-commands.ts";
import { chromiumPath, haveChromium, launchChromium, type Browser } from "../support/browser.ts";
import { startTestApp, unlockData, type TestApp } from "../support/harness.ts";

const journeyTimeoutMs = 90_000;

if (!haveChromium && process.env.CI !== "true") {
  console.warn(
    `portal e2e tests skipped: ${chromiumPath} is missing. Install it with 'apt-get install -y chromium' (as root).`,
  );
}

describe.runIf(!haveChromium && process.env.CI === "true")("portal e2e prerequisites", () => {
  it("has Debian's chromium in CI", () => {
    expect.fail(`${chromiumPath} is missing; .ci/run should have installed the chromium package.`);
  });
});

describe.skipIf(!haveChromium)("developer portal in a real browser", () => {
  let app: TestApp;
  let browser: Browser | undefined;
  let page: Page;
  const pageErrors: string[] = [];
  const developer = {
    email: `portal-${Date.now()}@example.test`,
    password: "a long enough passphrase",
    name: "Ada Developer",
  };
  let secret = "";
  let billingAvailable = false;

  const screenshot = (name: string) => browser!.screenshot(name);

  async function open(hashRoute: string): Promise<void> {
    const url = `${app.baseUrl}/#${hashRoute}`;
    if (page.url() === url) await page.reload();
    else await page.goto(url);
    // A hash change keeps the document, so wait for the portal to finish rendering this route.
    await page.locator(`main[data-route="${hashRoute}"]:not([aria-busy])`).waitFor();
  }

  async function usePlaygroundKey(key: string): Promise<void> {
    await open("/playground");
    await page.getByLabel("API key").fill(key);
    await page.getByRole("button", { name: "Use this key" }).click();
  }

  beforeAll(async () => {
    app = await startTestApp();
    browser = await launchChromium("syllabi-portal-chromium");
    page = browser.page;
    page.setDefaultTimeout(15_000);
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error" && /Content Security Policy/i.test(message.text()))
        pageErrors.push(message.text());
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it("serves portal pages with security headers and keeps the JSON 404 elsewhere", async () => {
    const response = await fetch(`${app.baseUrl}/`);
    expect(response.status).toBe(200);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBeTruthy();

    const terms = await fetch(`${app.baseUrl}/terms`);
    expect(terms.status).toBe(200);
    expect(await terms.text()).toMatch(/visible attribution/);

    const unknown = await fetch(`${app.baseUrl}/no-such-page`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: string }).error).toBe("not_found");
  });

  it("signs up, validating on the page first", { timeout: journeyTimeoutMs }, async () => {
    await open("/signup");
    await screenshot("signup");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByText("Please fix 5 problems below.").waitFor();
    expect(await page.getByText("Use at least 12 characters.").isVisible()).toBe(true);

    await page.getByLabel("Email").fill(developer.email);
    await page.getByLabel("Password").fill(developer.password);
    await page.getByLabel("Your name").fill(developer.name);
    await page.getByLabel("Organisation (optional)").fill("Example Academy Trust");
    await page.getByLabel("What are you building?").fill("A revision app for GCSE science students.");
    await page.getByLabel(/I have read and agree to the developer terms/).check();
    await page.getByRole("button", { name: "Create account" }).click();

    await page.getByRole("heading", { name: `Welcome, ${developer.name}` }).waitFor();
    expect(await page.locator("#data-status").textContent()).toBe("Locked");
    expect(await page.getByText("Launch prices").count()).toBe(0);
    expect(await page.locator("main").textContent()).toMatch(/Question set\s*8p/);
    await screenshot("dashboard-new");
  });

  it("makes a key whose secret is shown once", { timeout: journeyTimeoutMs }, async () => {
    await open("/keys");
    await page.getByLabel("Key name").fill("portal test key");
    await page.getByRole("button", { name: "Create key" }).click();
    const secretElement = page.locator("#new-secret");
    await secretElement.waitFor();
    secret = (await secretElement.textContent()) ?? "";
    expect(secret).toMatch(/^syl_live_[A-Za-z0-9]{32,}$/);
    expect(await page.getByText("This is the only time the key is shown.").isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Copy key" }).isVisible()).toBe(true);
    await screenshot("keys-secret");

    await page.reload();
    await page.locator("#keys-table").waitFor();
    expect(await page.locator("#new-secret").count()).toBe(0);
    const table = (await page.locator("#keys-table").textContent()) ?? "";
    expect(table).toContain(`syl_live_${secret.slice("syl_live_".length, "syl_live_".length + 8)}…`);
    expect(table).toContain("Never");
    expect(table).not.toContain(secret);
  });

  it(
    "shows 402 topup_required in the playground before a top-up",
    { timeout: journeyTimeoutMs },
    async () => {
      await usePlaygroundKey(secret);
      await page.getByRole("button", { name: "List subjects" }).click();
      const error = page.locator(".api-error");
      await error.waitFor();
      expect(await error.textContent()).toMatch(/^402 topup_required/);
      await screenshot("playground-402");
    },
  );

  it(
    "tops up through the embedded checkout, or says billing is unavailable",
    { timeout: journeyTimeoutMs },
    async () => {
      const billingStatus = await page.evaluate(() =>
        fetch("/platform/api/billing").then((response) => response.status),
      );
      billingAvailable = billingStatus !== 404;
      await open("/billing");
      if (billingStatus === 404) {
        expect(await page.getByText("Billing is not available on this server yet").isVisible()).toBe(true);
        await screenshot("billing-unavailable");
        return;
      }
      expect(billingStatus).toBe(200);
      await screenshot("billing");

      const payWith = async (cardNumber: string) => {
        await open("/billing");
        await page.getByRole("button", { name: "Top up £10.00" }).click();
        await page.waitForURL(/\/_pay\/checkout\//);
        await page.locator('input[name="cardNumber"]').fill(cardNumber);
        await page.locator('form [type="submit"]').first().click();
        await page.waitForLoadState("load");
      };

      await payWith("4242424242424242");
      await screenshot("checkout-paid");
      // The balance moves when the provider's webhook arrives; reload until it shows.
      await expect
        .poll(
          async () => {
            await open("/billing");
            return page.locator("#balance").textContent();
          },
          { timeout: 30_000, interval: 500 },
        )
        .toBe("£10.00");
      expect(await page.locator("#data-status").textContent()).toBe("Unlocked");
      await open("/dashboard");
      expect(await page.locator("#data-status").textContent()).toBe("Unlocked");
      expect(await page.locator("#balance").textContent()).toBe("£10.00");
      await screenshot("dashboard-unlocked");

      await usePlaygroundKey(secret);
      await page.getByRole("button", { name: "List subjects" }).click();
      await page.getByText(/\d+ subjects\./).waitFor();

      await payWith("4000000000000002");
      await screenshot("checkout-declined");
      expect(
        await page
          .getByText(/declined/i)
          .first()
          .isVisible(),
      ).toBe(true);
      await open("/billing");
      expect(await page.locator("#balance").textContent()).toBe("£10.00");

      await page.getByLabel("When the balance falls below (£)").fill("0.20");
      await page.getByRole("button", { name: "Save automatic top-up" }).click();
      await page.getByText("Enter an amount between £0.50 and £50.00.").waitFor();
    },
  );

  it("streams a genie chat in the playground and shows the cost", { timeout: journeyTimeoutMs }, async () => {
    if (!billingAvailable) {
      // Without payments the data can still be unlocked directly; the balance stays at zero.
      const me = await page.evaluate(() => fetch("/platform/api/me").then((response) => response.json()));
      await unlockData(app, (me as { account: { id: string } }).account.id);
    }
    await usePlaygroundKey(secret);
    await page.getByRole("tab", { name: "Chat (streaming)" }).click();
    await page.getByRole("button", { name: "Load subjects" }).click();
    await page.locator("#chat-subject option[data-genie]").first().waitFor({ state: "attached" });
    await page.getByLabel("Your message").fill("What is osmosis?");
    await page.getByRole("button", { name: "Send (4p per reply)" }).click();
    if (!billingAvailable) {
      const error = page.locator("#panel-chat .api-error");
      await error.waitFor();
      expect(await error.textContent()).toMatch(/^402 insufficient_balance/);
      return;
    }
    const cost = page.locator("#panel-chat .cost");
    await cost.waitFor({ timeout: 30_000 });
    expect(await cost.textContent()).toMatch(/Cost: £0\.04 · new balance: £9\.96/);
    expect((await page.locator("#chat-log .bubble.assistant").textContent())?.length).toBeGreaterThan(0);
    const events = (await page.locator("#chat-events").textContent()) ?? "";
    expect(events).toMatch(/^start.*delta.*done$/s);
    expect(await page.locator("#chat-log .attribution a").count()).toBe(1);
    await screenshot("playground-chat");
    await open("/dashboard");
    expect(await page.locator("#balance").textContent()).toBe("£9.96");
  });

  it(
    "aligns text, chats with a custom genie and generates questions, each with its cost",
    { timeout: journeyTimeoutMs },
    async () => {
      await usePlaygroundKey(secret);
      await page.getByRole("tab", { name: "Align" }).click();
      await page.locator("#panel-align").getByRole("button", { name: "Load subjects" }).click();
      await page.locator("#align-subject option").nth(1).waitFor({ state: "attached" });
      await page.getByRole("button", { name: "Align (1p)" }).click();
      if (!billingAvailable) {
        const error = page.locator("#panel-align .api-error");
        await error.waitFor();
        expect(await error.textContent()).toMatch(/^402 insufficient_balance/);
        return;
      }
      await page.locator("#panel-align .cost").waitFor();
      expect(await page.locator("#panel-align .cost").textContent()).toMatch(
        /Cost: £0\.01 · new balance: £9\.95/,
      );
      expect(await page.locator("#panel-align ol li").count()).toBeGreaterThan(0);

      await page.getByRole("tab", { name: "Chat (streaming)" }).click();
      await page.getByRole("button", { name: "New conversation" }).click();
      await page.getByLabel("Chat with").selectOption("custom");
      await page.getByLabel("Your message").fill("Can you explain diffusion?");
      await page.getByRole("button", { name: "Send (4p per reply)" }).click();
      await page.locator("#panel-chat .cost").waitFor({ timeout: 30_000 });
      expect(await page.locator("#panel-chat .cost").textContent()).toMatch(/new balance: £9\.91/);

      await page.getByRole("tab", { name: "Questions" }).click();
      await page.getByRole("button", { name: "Generate (8p)" }).click();
      await page.locator("#panel-questions .cost").waitFor({ timeout: 30_000 });
      expect(await page.locator("#panel-questions .cost").textContent()).toMatch(
        /Cost: £0\.08 · new balance: £9\.83/,
      );
      expect(await page.locator("#panel-questions > form > div > ol > li").count()).toBe(3);
      await screenshot("playground-questions");
    },
  );

  it(
    "revokes the key after confirmation and the playground sees it refused",
    { timeout: journeyTimeoutMs },
    async () => {
      await open("/keys");
      await page.getByRole("button", { name: "Revoke portal test key" }).click();
      await page.getByText("This cannot be undone.").waitFor();
      await page.getByRole("button", { name: "Yes, revoke" }).click();
      await page.getByText("Key “portal test key” revoked.").waitFor();
      expect(await page.locator("#keys-table").textContent()).toContain("Revoked");

      await usePlaygroundKey(secret);
      await page.getByRole("button", { name: "List subjects" }).click();
      const error = page.locator(".api-error");
      await error.waitFor();
      expect(await error.textContent()).toMatch(/^401 revoked_api_key/);
      await screenshot("playground-revoked");
    },
  );

  it("explains the 5-key limit when it is reached", { timeout: journeyTimeoutMs }, async () => {
    await open("/keys");
    for (let index = 1; index <= 5; index += 1) {
      await page.getByLabel("Key name").fill(`key ${index}`);
      await page.getByRole("button", { name: "Create key" }).click();
      await page.locator("#new-secret").waitFor();
    }
    expect(await page.getByRole("button", { name: "Create key" }).isDisabled()).toBe(true);
    expect(await page.getByText(/You have 5 live keys, the most an account can hold/).isVisible()).toBe(true);
    await screenshot("keys-limit");
  });

  it("shows the docs with the independence statement and error table", async () => {
    await open("/docs");
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).toContain("independent and not affiliated with, or endorsed by, any exam board");
    expect(text).toContain("topup_required");
    expect(text).toContain("curl");
    expect(await page.locator('main a[href="/docs"]').count()).toBeGreaterThan(0);
    expect(await page.locator("main code").filter({ hasText: app.baseUrl }).count()).toBeGreaterThan(0);
    await screenshot("docs");
  });

  it("fits a phone-width screen and can be driven from the keyboard", async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    for (const route of ["/dashboard", "/keys", "/billing", "/playground", "/docs"]) {
      await open(route);
      const overflow = await page.evaluate<number>(
        "document.documentElement.scrollWidth - window.innerWidth",
      );
      expect(overflow, `horizontal overflow on ${route}`).toBeLessThanOrEqual(0);
    }
    await open("/playground");
    await page.getByRole("tab", { name: "Subjects and trees" }).focus();
    await page.keyboard.press("ArrowRight");
    expect(await page.getByRole("tab", { name: "Align" }).getAttribute("aria-selected")).toBe("true");
    expect(await page.evaluate<string | undefined>("document.activeElement?.id")).toBe("tab-align");
    await screenshot("playground-phone");
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("draws 30 days of usage as an inline SVG chart", async () => {
    const today = new Date().toISOString().slice(0, 10);
    await page.route("**/platform/api/usage?days=30", (route) =>
      route.fulfill({
        json: {
          days: 30,
          refreshedAt: new Date().toISOString(),
          series: [
            {
              day: today,
              byKind: [
                { kind: "align", calls: 3, spendPence: 3 },
                { kind: "genie_chat", calls: 2, spendPence: 8 },
                { kind: "questions", calls: 0, spendPence: 0 },
              ],
            },
          ],
        },
      }),
    );
    await open("/dashboard");
    await page.unroute("**/platform/api/usage?days=30");
    const chart = page.locator(".chart svg[role='img']");
    expect(await chart.getAttribute("aria-label")).toContain("5 calls, £0.11 spent");
    expect(await page.locator(".chart rect").count()).toBe(2);
    expect(await page.locator(".legend").textContent()).toContain("Align: 3 calls, £0.03");
    await screenshot("dashboard-chart");
  });

  it("signs out and back in", async () => {
    await open("/dashboard");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await page.getByLabel("Email").fill(developer.email);
    await page.getByLabel("Password").fill("not the password at all");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("The email address or password is not correct.").waitFor();
    await page.getByLabel("Password").fill(developer.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: `Welcome, ${developer.name}` }).waitFor();
    await screenshot("signin-dashboard");
  });

  it("lists the receipt and the changelog on the Messages page", { timeout: journeyTimeoutMs }, async () => {
    await postChangelog(
      app.runtime,
      parseFlags([
        "--title",
        "Welsh question sets",
        "--body",
        "Question sets can now be asked for in Welsh.",
      ]),
    );
    await open("/messages");
    await page.locator("#changelog-list").getByText("Welsh question sets").waitFor();
    if (billingAvailable)
      await page
        .locator("#message-list")
        .getByText(/^Receipt: £10\.00/)
        .waitFor();
    await screenshot("messages");
  });

  it("refunds a top-up and closes the account", { timeout: journeyTimeoutMs }, async () => {
    await open("/billing");
    if (!billingAvailable) {
      await page.getByLabel(/I understand that every key is revoked/).check();
      await page.getByRole("button", { name: "Close my account" }).click();
      await page.getByText("Closing an account is not available on this server yet.").waitFor();
      return;
    }
    await page.getByRole("button", { name: /^Refund £/ }).click();
    await page.getByText(/^Refunded £\d+\.\d\d to your card\.$/).waitFor();
    expect(await page.locator("#balance").textContent()).toBe("£0.00");
    await screenshot("billing-refunded");

    await page.getByRole("button", { name: "Close my account" }).click();
    await page.getByText("Tick the box to confirm you want to close the account.").waitFor();
    await page.getByLabel(/I understand that every key is revoked/).check();
    await page.getByRole("button", { name: "Close my account" }).click();
    await page.locator('main[data-route="/signin"]').waitFor();
  });

  it("ran without script errors or CSP violations", () => {
    expect(pageErrors).toEqual([]);
  });
});
