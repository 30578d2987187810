import { desc } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedWebhookSecret } from "../../src/billing/compose.ts";
import { embeddedWebhookDeliveries } from "../../src/storage/schema.ts";
import { api } from "../support/harness.ts";
import {
  billingOf,
  createDeveloper,
  postWebhook,
  sign,
  startClockedApp,
  topUpThroughCheckout,
} from "./clocked-app.ts";

const developmentPepper = "syllabi-development-pepper-never-use-in-production";
let app: Awaited<ReturnType<typeof startClockedApp>>;

beforeAll(async () => {
  app = await startClockedApp({ VAT_RATE_PERCENT: "20" });
});
afterAll(() => app.close());

describe("top-up through the embedded checkout", () => {
  it("shows the amount and VAT on a local page", async () => {
    const { client } = await createDeveloper(app);
    const opened = await client.request("POST", "/platform/api/billing/checkout", { amountPence: 2500 });
    const { url } = (await opened.json()) as { url: string };
    const page = await fetch(`${app.baseUrl}${new URL(url).pathname}`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(html).toContain("£25.00");
    expect(html).toContain("£5.00");
    expect(html).toContain("£30.00");
    expect(html).not.toMatch(/<script|https?:\/\/(?!127)/);
  });

  it("credits 1000 on the success card via the webhook and unlocks the data endpoints", async () => {
    const { client, key } = await createDeveloper(app);
    expect((await api(app, key, "GET", "/api/v1/subjects")).status).toBe(402);
    const paid = await topUpThroughCheckout(app, client, 1000);
    expect(paid.payStatus).toBe(200);
    const billing = await billingOf(client);
    expect(billing.balancePence).toBe(1000);
    expect(billing.dataUnlocked).toBe(true);
    expect(billing.topUps[0]).toMatchObject({
      amountPence: 1000,
      status: "confirmed",
      refundablePence: 1000,
    });
    expect((await api(app, key, "GET", "/api/v1/subjects")).status).toBe(200);
    const account = await api(app, key, "GET", "/api/v1/account");
    expect(account.json.billing).toMatchObject({ balancePence: 1000, dataUnlocked: true });
    const messages = (await (await client.request("GET", "/platform/api/messages")).json()) as {
      messages: { subject: string }[];
    };
    expect(messages.messages[0]?.subject).toContain("£10.00");
  });

  it("moves nothing for the declined and insufficient-funds cards", async () => {
    const { client, key } = await createDeveloper(app);
    const declined = await topUpThroughCheckout(app, client, 1000, "4000000000000002");
    expect(declined.payStatus).toBe(402);
    expect(declined.payBody).toMatchObject({ status: "failed", reason: "card_declined" });
    const poor = await topUpThroughCheckout(app, client, 1000, "4000000000009995");
    expect(poor.payBody).toMatchObject({ status: "failed", reason: "insufficient_funds" });
    const billing = await billingOf(client);
    expect(billing.balancePence).toBe(0);
    expect(billing.dataUnlocked).toBe(false);
    expect((await api(app, key, "GET", "/api/v1/subjects")).status).toBe(402);
  });

  it("accepts a form post from the page", async () => {
    const { client } = await createDeveloper(app);
    const opened = await client.request("POST", "/platform/api/billing/checkout", { amountPence: 1000 });
    const { url } = (await opened.json()) as { url: string };
    const paid = await fetch(`${app.baseUrl}${new URL(url).pathname}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "cardNumber=4242+4242+4242+4242",
    });
    expect(paid.status).toBe(200);
    expect(await paid.text()).toContain("Payment received");
    expect((await billingOf(client)).balancePence).toBe(1000);
  });

  it("refuses a checkout amount outside 1000, 2500 and 10000", async () => {
    const { client } = await createDeveloper(app);
    const response = await client.request("POST", "/platform/api/billing/checkout", { amountPence: 999 });
    expect(response.status).toBe(400);
  });
});

describe("the webhook", () => {
  it("credits once for a duplicate delivery and for a replayed payment under a new event id", async () => {
    const { client } = await createDeveloper(app);
    await topUpThroughCheckout(app, client, 1000);
    const [delivery] = await app.runtime.storage.db
      .select()
      .from(embeddedWebhookDeliveries)
      .orderBy(desc(embeddedWebhookDeliveries.createdAt))
      .limit(1);
    const secret = embeddedWebhookSecret(developmentPepper);
    const raw = delivery?.payload ?? "";
    const again = await postWebhook(app, raw, sign(secret, raw, app.clock.now()));
    expect(again.status).toBe(200);
    expect(again.json.outcome).toBe("duplicate");
    const renamed = JSON.stringify({ ...(JSON.parse(raw) as object), id: "evt_replayedUnderANewId" });
    const replay = await postWebhook(app, renamed, sign(secret, renamed, app.clock.now()));
    expect(replay.json.outcome).toBe("duplicate");
    expect((await billingOf(client)).balancePence).toBe(1000);
  });

  it("refuses a bad signature, and an old timestamp, without acting", async () => {
    const raw = JSON.stringify({ id: "evt_x", type: "checkout.completed", data: {} });
    const forged = await postWebhook(app, raw, sign("not-the-secret", raw, app.clock.now()));
    expect(forged.status).toBe(400);
    const secret = embeddedWebhookSecret(developmentPepper);
    const stale = await postWebhook(
      app,
      raw,
      sign(secret, raw, new Date(app.clock.now().getTime() - 3_600_000)),
    );
    expect(stale.status).toBe(400);
    const missing = await api(app, null, "POST", "/platform/webhooks/embedded", raw);
    expect(missing.status).toBe(400);
  });

  it("ignores an unpaid checkout event", async () => {
    const { client, accountId } = await createDeveloper(app);
    const opened = await client.request("POST", "/platform/api/billing/checkout", { amountPence: 1000 });
    const { checkoutId } = (await opened.json()) as { checkoutId: string };
    const [topUp] = (await billingOf(client)).topUps;
    const raw = JSON.stringify({
      id: "evt_unpaid0001",
      type: "checkout.completed",
      data: {
        checkoutId,
        paymentId: null,
        amountPence: 1000,
        status: "unpaid",
        metadata: { topUpId: topUp?.id, accountId },
      },
    });
    const secret = embeddedWebhookSecret(developmentPepper);
    const response = await postWebhook(app, raw, sign(secret, raw, app.clock.now()));
    expect(response.json.outcome).toBe("ignored");
    expect(await app.runtime.billing.ledger.balance(accountId)).toBe(0);
  });
});

describe("refunds and closing", () => {
  it("refunds the unspent part within 14 days, and refuses after", async () => {
    const { client, accountId, keyId } = await createDeveloper(app);
    await topUpThroughCheckout(app, client, 1000);
    const ledger = app.runtime.billing.ledger;
    const spent = await ledger.reserve({ accountId, keyId, kind: "questions", requestId: "req_t" });
    if (spent.ok) await ledger.commit(spent.reservation);
    const [lot] = (await billingOf(client)).topUps;
    const refunded = await client.request("POST", `/platform/api/billing/topups/${lot?.id}/refund`);
    expect(refunded.status).toBe(200);
    expect(await refunded.json()).toEqual({ refundedPence: 992 });
    const after = await billingOf(client);
    expect(after.balancePence).toBe(0);
    expect(after.topUps[0]).toMatchObject({ refundedPence: 992, refundablePence: 0 });
    const twice = await client.request("POST", `/platform/api/billing/topups/${lot?.id}/refund`);
    expect(twice.status).toBe(400);

    await topUpThroughCheckout(app, client, 2500);
    const [second] = (await billingOf(client)).topUps;
    // Past the window (sessions expire too, so ask the service directly).
    app.clock.advance(15 * 24 * 60 * 60 * 1000);
    const late = await app.runtime.billing.billing.refundTopUp(accountId, second?.id ?? "");
    expect(late).toEqual({ ok: false, reason: "window_closed" });
    expect(await ledger.balance(accountId)).toBe(2500);
  });

  it("closing an account revokes its keys and refunds the unspent balance", async () => {
    const { client, key, accountId } = await createDeveloper(app);
    await topUpThroughCheckout(app, client, 1000);
    const closed = await client.request("POST", "/platform/api/account/close");
    expect(closed.status).toBe(200);
    expect(await closed.json()).toMatchObject({ closed: true, refundedPence: 1000 });
    expect((await api(app, key, "GET", "/api/v1/account")).status).toBe(401);
    expect(await app.runtime.billing.ledger.balance(accountId)).toBe(0);
  });
});
