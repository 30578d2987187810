import { and, desc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedWebhookSecret } from "../../src/billing/compose.ts";
import { embeddedWebhookDeliveries, topUps } from "../../src/storage/schema.ts";
import { api, PlatformClient } from "../support/harness.ts";
import {
  billingOf,
  createDeveloper,
  payOnProviderPage,
  postWebhook,
  sign,
  startClockedApp,
} from "./clocked-app.ts";

const developmentPepper = "syllabi-development-pepper-never-use-in-production";
const secret = embeddedWebhookSecret(developmentPepper);
const dayMs = 24 * 60 * 60 * 1000;
let app: Awaited<ReturnType<typeof startClockedApp>>;

beforeAll(async () => {
  app = await startClockedApp({ VAT_RATE_PERCENT: "20" });
}, 120_000);
afterAll(() => app.close());

async function startMonthly(client: PlatformClient, amountPence: number) {
  const response = await client.request("POST", "/platform/api/billing/subscription", { amountPence });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

async function subscribed(amountPence = 2500) {
  const developer = await createDeveloper(app);
  const started = await startMonthly(developer.client, amountPence);
  expect(started.status).toBe(200);
  const paid = await payOnProviderPage(app, started.body.url ?? "");
  expect(paid.status).toBe(200);
  const billing = await billingOf(developer.client);
  return { ...developer, subscriptionId: billing.subscription?.id ?? "" };
}

function subscriptionLots(accountId: string) {
  return app.runtime.storage.db
    .select()
    .from(topUps)
    .where(and(eq(topUps.accountId, accountId), eq(topUps.method, "subscription")));
}

async function lastDelivery(type: string, accountId: string) {
  const [row] = await app.runtime.storage.db
    .select()
    .from(embeddedWebhookDeliveries)
    .where(
      and(
        like(embeddedWebhookDeliveries.payload, `%"type":"${type}"%`),
        like(embeddedWebhookDeliveries.payload, `%"accountId":"${accountId}"%`),
      ),
    )
    .orderBy(desc(embeddedWebhookDeliveries.createdAt))
    .limit(1);
  return row?.payload ?? "";
}

async function deliver(event: object) {
  const raw = JSON.stringify(event);
  return postWebhook(app, raw, sign(secret, raw, app.clock.now()));
}

describe("monthly top-up through the embedded checkout", () => {
  it("shows the monthly amount and VAT, and credits the first month once paid", async () => {
    const { client, key, accountId } = await createDeveloper(app);
    const started = await startMonthly(client, 2500);
    expect(started.status).toBe(200);
    expect(started.body.url).toContain("/_pay/checkout/");
    const page = await (await fetch(`${app.baseUrl}${new URL(started.body.url ?? "").pathname}`)).text();
    expect(page).toContain("Monthly top-up");
    expect(page).toContain("£30.00");

    const pending = await billingOf(client);
    expect(pending.balancePence).toBe(0);
    expect(pending.subscription).toMatchObject({ status: "pending", amountPence: 2500, id: null });

    const declined = await payOnProviderPage(app, started.body.url ?? "", "4000000000000002");
    expect(declined.status).toBe(402);
    expect((await billingOf(client)).balancePence).toBe(0);

    const paid = await payOnProviderPage(app, started.body.url ?? "");
    expect(paid.status).toBe(200);
    const billing = await billingOf(client);
    expect(billing.balancePence).toBe(2500);
    expect(billing.dataUnlocked).toBe(true);
    expect(billing.subscription).toMatchObject({ status: "active", amountPence: 2500 });
    expect(billing.subscription?.id).toMatch(/^sub_/);
    const periodEnd = Date.parse(billing.subscription?.currentPeriodEnd ?? "");
    expect(periodEnd - app.clock.now().getTime()).toBeGreaterThan(27 * dayMs);
    expect(billing.topUps[0]).toMatchObject({
      method: "subscription",
      status: "confirmed",
      amountPence: 2500,
    });
    expect((await api(app, key, "GET", "/api/v1/subjects")).status).toBe(200);
    expect(await subscriptionLots(accountId)).toHaveLength(1);
    const messages = (await (await client.request("GET", "/platform/api/messages")).json()) as {
      messages: { subject: string }[];
    };
    expect(messages.messages[0]?.subject).toBe("Receipt: £25.00 monthly top-up");
  });

  it("refuses a second monthly top-up while one is active, and amounts outside the three", async () => {
    const { client } = await subscribed(1000);
    const again = await startMonthly(client, 2500);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("subscription_exists");
    const { client: other } = await createDeveloper(app);
    const odd = await startMonthly(other, 1500);
    expect(odd.status).toBe(400);
    expect(odd.body).toMatchObject({ error: "invalid_request", param: "amountPence" });
  });

  it("credits each renewed month once, from the /_pay renewal and from the clock", async () => {
    const { client, accountId, subscriptionId } = await subscribed(1000);
    const renewed = await fetch(`${app.baseUrl}/_pay/subscriptions/${subscriptionId}/renew`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(renewed.status).toBe(200);
    expect((await billingOf(client)).balancePence).toBe(2000);

    // The renewal stood in for the first month passing; nothing is due until the second month ends.
    app.clock.advance(32 * dayMs);
    await app.runtime.billing.embedded?.renewDue();
    expect(await app.runtime.billing.ledger.balance(accountId)).toBe(2000);
    app.clock.advance(31 * dayMs);
    await Promise.all([app.runtime.billing.embedded?.renewDue(), app.runtime.billing.embedded?.renewDue()]);
    expect(await app.runtime.billing.ledger.balance(accountId)).toBe(3000);
    const lots = await subscriptionLots(accountId);
    expect(lots).toHaveLength(3);
    expect(new Set(lots.map((lot) => lot.periodStart?.toISOString())).size).toBe(3);

    const summary = await app.runtime.billing.billing.summary(accountId);
    expect(Date.parse(summary.subscription?.currentPeriodEnd ?? "")).toBeGreaterThan(
      app.clock.now().getTime(),
    );
  });

  it("credits a re-sent period once, under its own event id or a new one", async () => {
    const { accountId } = await subscribed(2500);
    const raw = await lastDelivery("subscription.period_paid", accountId);
    const event = JSON.parse(raw) as { id: string; data: { accountId: string } };
    expect(event.data.accountId).toBe(accountId);
    const again = await postWebhook(app, raw, sign(secret, raw, app.clock.now()));
    expect(again.json.outcome).toBe("duplicate");
    const renamed = await deliver({ ...event, id: "evt_periodResentUnderNewId" });
    expect(renamed.json.outcome).toBe("duplicate");
    const otherPayment = await deliver({
      ...event,
      id: "evt_samePeriodOtherPayment",
      data: { ...event.data, paymentId: "pay_anotherPaymentSamePeriod" },
    });
    expect(otherPayment.json.outcome).toBe("duplicate");
    expect(await app.runtime.billing.ledger.balance(accountId)).toBe(2500);
  });

  it("handles a period paid before the subscription's own update arrives, and a stale update after", async () => {
    const { client, accountId } = await createDeveloper(app);
    const now = app.clock.now();
    const periodEnd = new Date(now.getTime() + 30 * dayMs).toISOString();
    const base = { subscriptionId: "sub_outOfOrder000001", accountId, amountPence: 1000 };
    const paid = await deliver({
      id: "evt_outOfOrderPaid01",
      type: "subscription.period_paid",
      data: { ...base, paymentId: "pay_outOfOrder00001", periodStart: now.toISOString(), periodEnd },
    });
    expect(paid.json.outcome).toBe("acted");
    expect((await billingOf(client)).subscription).toMatchObject({
      status: "active",
      currentPeriodEnd: periodEnd,
    });

    const pastDue = await deliver({
      id: "evt_outOfOrderLate01",
      type: "subscription.updated",
      data: { ...base, status: "past_due", currentPeriodEnd: periodEnd, occurredAt: now.toISOString() },
    });
    expect(pastDue.json.outcome).toBe("acted");
    const older = await deliver({
      id: "evt_outOfOrderOld001",
      type: "subscription.updated",
      data: {
        ...base,
        status: "active",
        currentPeriodEnd: periodEnd,
        occurredAt: new Date(now.getTime() - 60_000).toISOString(),
      },
    });
    expect(older.json.outcome).toBe("ignored");
    expect((await billingOf(client)).subscription?.status).toBe("past_due");
    expect((await billingOf(client)).balancePence).toBe(1000);
  });

  it("emails the developer once when a month's renewal fails and the monthly top-up is past due", async () => {
    const { client, accountId, subscriptionId, email } = await subscribed(1000);
    const pastDue = (id: string, occurredAt: Date) => ({
      id,
      type: "subscription.updated",
      data: {
        subscriptionId,
        accountId,
        amountPence: 1000,
        status: "past_due",
        currentPeriodEnd: null,
        occurredAt: occurredAt.toISOString(),
      },
    });
    const failed = pastDue(`evt_renewalFailed${accountId.slice(-8)}`, app.clock.now());
    expect((await deliver(failed)).json.outcome).toBe("acted");
    // The same event again, and the provider saying "past due" again later, are not news.
    expect((await deliver(failed)).json.outcome).toBe("duplicate");
    const later = pastDue(
      `evt_stillPastDue${accountId.slice(-8)}`,
      new Date(app.clock.now().getTime() + 60_000),
    );
    expect((await deliver(later)).json.outcome).toBe("acted");

    const response = await client.request("GET", "/platform/api/messages");
    const { messages } = (await response.json()) as {
      messages: { to: string; subject: string; text: string }[];
    };
    const notices = messages.filter((message) => message.subject.startsWith("Monthly top-up failed"));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ to: email, subject: "Monthly top-up failed: £10.00 was not added" });
    expect(notices[0]?.text).toContain("now past due");
    expect(notices[0]?.text).toContain("Your balance is £10.00");
    expect((await billingOf(client)).subscription?.status).toBe("past_due");
  });
});

describe("cancelling a monthly top-up", () => {
  it("stops renewals, keeps paid months, and is final", async () => {
    const { client, accountId, subscriptionId } = await subscribed(1000);
    const canceled = await client.request("DELETE", "/platform/api/billing/subscription");
    expect(canceled.status).toBe(200);
    expect(await canceled.json()).toMatchObject({
      subscription: { id: subscriptionId, status: "canceled", amountPence: 1000 },
    });
    expect((await billingOf(client)).subscription?.status).toBe("canceled");

    const renewal = await fetch(`${app.baseUrl}/_pay/subscriptions/${subscriptionId}/renew`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(renewal.status).toBe(409);
    app.clock.advance(40 * dayMs);
    await app.runtime.billing.embedded?.renewDue();
    expect(await app.runtime.billing.ledger.balance(accountId)).toBe(1000);

    // A late "active" from before the cancellation changes nothing.
    const stale = await deliver({
      id: "evt_staleActiveAfterCancel",
      type: "subscription.updated",
      data: {
        subscriptionId,
        accountId,
        amountPence: 1000,
        status: "active",
        currentPeriodEnd: null,
        occurredAt: new Date(app.clock.now().getTime() + 1000).toISOString(),
      },
    });
    expect(stale.json.outcome).toBe("ignored");
    const summary = await app.runtime.billing.billing.summary(accountId);
    expect(summary.subscription?.status).toBe("canceled");

    // A period the provider did charge is still credited, without reopening the subscription.
    const latePeriod = await deliver({
      id: "evt_latePeriodAfterCancel",
      type: "subscription.period_paid",
      data: {
        subscriptionId,
        accountId,
        amountPence: 1000,
        paymentId: "pay_latePeriodAfterCancel",
        periodStart: new Date(app.clock.now().getTime() - dayMs).toISOString(),
        periodEnd: new Date(app.clock.now().getTime() + 29 * dayMs).toISOString(),
      },
    });
    expect(latePeriod.json.outcome).toBe("acted");
    expect(await app.runtime.billing.ledger.balance(accountId)).toBe(2000);
    expect((await app.runtime.billing.billing.summary(accountId)).subscription?.status).toBe("canceled");
  });

  it("answers 404 with nothing to cancel, and allows a new monthly top-up after a cancellation", async () => {
    const { client } = await createDeveloper(app);
    const nothing = await client.request("DELETE", "/platform/api/billing/subscription");
    expect(nothing.status).toBe(404);
    expect(((await nothing.json()) as { error: string }).error).toBe("subscription_not_found");

    const started = await startMonthly(client, 1000);
    const forgotten = await client.request("DELETE", "/platform/api/billing/subscription");
    expect(forgotten.status).toBe(200);
    expect((await billingOf(client)).subscription).toBeNull();
    // The abandoned checkout can still be paid; the money is then credited as the new subscription's.
    await payOnProviderPage(app, started.body.url ?? "");
    expect((await billingOf(client)).subscription?.status).toBe("active");
    await client.request("DELETE", "/platform/api/billing/subscription");
    const again = await startMonthly(client, 2500);
    expect(again.status).toBe(200);
  });

  it("needs a session and the CSRF token", async () => {
    const anonymous = new PlatformClient(app.baseUrl);
    const signedOut = await anonymous.request("POST", "/platform/api/billing/subscription", {
      amountPence: 1000,
    });
    expect(signedOut.status).toBe(401);
    const { client } = await createDeveloper(app);
    const forged = await client.request("DELETE", "/platform/api/billing/subscription", undefined, {
      csrf: false,
    });
    expect(forged.status).toBe(403);
  });
});
