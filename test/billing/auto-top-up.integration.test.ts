import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { topUps } from "../../src/storage/schema.ts";
import { api, createDeveloper, startTestApp, type PlatformClient, type TestApp } from "../support/harness.ts";
import { createTestDatabase, postgresAvailable } from "../support/services.ts";
import { billingOf, payOnProviderPage, saveCard, topUpThroughCheckout } from "../payments/clocked-app.ts";

const biologySubject = "aqa-gcse-biology-8461";
const cards = {
  success: "4242424242424242",
  declinesWhenCharged: "4000000000000341",
  insufficientFunds: "4000000000009995",
};
const generousLimits = { RATE_LIMIT_AI_PER_MIN: "1000", RATE_LIMIT_GENERAL_PER_MIN: "1000" };

async function putAutoTopUp(client: PlatformClient, body: unknown) {
  const response = await client.request("PUT", "/platform/api/billing/auto-topup", body);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A developer with a saved card, £10 paid through the checkout and automatic top-up switched on. */
async function readyDeveloper(
  app: TestApp,
  options: { card?: string; thresholdPence: number; amountPence?: number },
) {
  const developer = await createDeveloper(app);
  await topUpThroughCheckout(app, developer.client, 1000);
  const saved = await saveCard(app, developer.client, options.card ?? cards.success);
  expect(saved.status).toBe(200);
  const put = await putAutoTopUp(developer.client, {
    enabled: true,
    thresholdPence: options.thresholdPence,
    amountPence: options.amountPence ?? 1000,
  });
  expect(put.status).toBe(200);
  return developer;
}

function align(app: TestApp, key: string) {
  return api(app, key, "POST", "/api/v1/align", { subjectId: biologySubject, text: "osmosis in cells" });
}

async function automaticTopUps(app: TestApp, accountId: string) {
  return app.runtime.storage.db
    .select()
    .from(topUps)
    .where(and(eq(topUps.accountId, accountId), eq(topUps.method, "automatic")));
}

async function outboxSubjects(client: PlatformClient): Promise<string[]> {
  const response = await client.request("GET", "/platform/api/messages");
  const { messages } = (await response.json()) as { messages: { subject: string }[] };
  return messages.map((message) => message.subject);
}

describe("automatic top-up on PGlite", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(generousLimits);
  }, 120_000);
  afterAll(() => app.close());

  it("validates the settings and needs a saved card to switch on", async () => {
    const { client } = await createDeveloper(app);
    const valid = { enabled: true, thresholdPence: 500, amountPence: 1000 };
    const low = await putAutoTopUp(client, { ...valid, thresholdPence: 49 });
    expect(low).toMatchObject({ status: 400, body: { error: "invalid_request", param: "thresholdPence" } });
    const high = await putAutoTopUp(client, { ...valid, thresholdPence: 5001 });
    expect(high.body.param).toBe("thresholdPence");
    const fractional = await putAutoTopUp(client, { ...valid, thresholdPence: 50.5 });
    expect(fractional.body.param).toBe("thresholdPence");
    const amount = await putAutoTopUp(client, { ...valid, amountPence: 5000 });
    expect(amount.body.param).toBe("amountPence");
    const unknown = await putAutoTopUp(client, { ...valid, extra: true });
    expect(unknown.body.param).toBe("extra");
    const noCard = await putAutoTopUp(client, valid);
    expect(noCard).toMatchObject({ status: 409, body: { error: "payment_method_required" } });
    const off = await putAutoTopUp(client, { ...valid, enabled: false });
    expect(off.status).toBe(200);

    const forged = await client.request("PUT", "/platform/api/billing/auto-topup", valid, { csrf: false });
    expect(forged.status).toBe(403);

    await saveCard(app, client);
    const on = await putAutoTopUp(client, { ...valid, thresholdPence: 50 });
    expect(on.status).toBe(200);
    expect(on.body.autoTopUp).toMatchObject({ enabled: true, thresholdPence: 50, amountPence: 1000 });
    const billing = await billingOf(client);
    expect(billing.paymentMethod).toMatchObject({ last4: "4242" });
    expect(billing.autoTopUp).toMatchObject({ enabled: true, thresholdPence: 50, disabledReason: null });
  });

  it("buys exactly one top-up when many concurrent charges cross the threshold at once", async () => {
    const { client, key, accountId } = await readyDeveloper(app, { thresholdPence: 1000 });
    const responses = await Promise.all(Array.from({ length: 20 }, () => align(app, key)));
    expect(responses.every((response) => response.status === 200)).toBe(true);
    await app.runtime.billing.autoTopUp.drain();
    const automatic = await automaticTopUps(app, accountId);
    expect(automatic).toHaveLength(1);
    expect(automatic[0]).toMatchObject({ status: "confirmed", amountPence: 1000 });
    const billing = await billingOf(client);
    expect(billing.balancePence).toBe(1000 - 20 + 1000);
    expect(billing.topUps[0]).toMatchObject({ method: "automatic", status: "confirmed" });

    // Another crossing later buys its own top-up.
    await putAutoTopUp(client, { enabled: true, thresholdPence: 5000, amountPence: 2500 });
    await align(app, key);
    await app.runtime.billing.autoTopUp.drain();
    expect(await automaticTopUps(app, accountId)).toHaveLength(2);
    expect((await billingOf(client)).balancePence).toBe(1980 - 1 + 2500);
  });

  it("claims one top-up per crossing: concurrent claims, and a top-up still in flight", async () => {
    const { key, accountId } = await readyDeveloper(app, { thresholdPence: 5000 });
    const autoTopUp = app.runtime.billing.autoTopUp;
    const claims = await Promise.all(Array.from({ length: 12 }, () => autoTopUp.claim(accountId)));
    const claimed = claims.filter((id): id is string => id !== null);
    expect(claimed).toHaveLength(1);

    // While it is in flight, charges that cross again claim nothing more.
    await align(app, key);
    await autoTopUp.drain();
    expect(await autoTopUp.claim(accountId)).toBeNull();
    expect(await automaticTopUps(app, accountId)).toHaveLength(1);

    expect((await autoTopUp.attempt(claimed[0] ?? "")).kind).toBe("charged");
    // A repeat of the same attempt (a retry after a crash) charges nothing more.
    expect((await autoTopUp.attempt(claimed[0] ?? "")).kind).toBe("not_pending");
    expect(await app.runtime.ledger.balance(accountId)).toBe(1000 - 1 + 1000);

    // Once it is confirmed, the next charge below the threshold is a new crossing.
    await align(app, key);
    await autoTopUp.drain();
    const automatic = await automaticTopUps(app, accountId);
    expect(automatic).toHaveLength(2);
    expect(automatic.every((row) => row.status === "confirmed")).toBe(true);
    expect(await app.runtime.ledger.balance(accountId)).toBe(1999 - 1 + 1000);
  });

  it("switches itself off on a declined card, emails once, says why, and leaves manual top-ups working", async () => {
    const { client, key, accountId } = await readyDeveloper(app, {
      thresholdPence: 1000,
      card: cards.declinesWhenCharged,
    });
    const responses = await Promise.all(Array.from({ length: 5 }, () => align(app, key)));
    expect(responses.every((response) => response.status === 200)).toBe(true);
    await app.runtime.billing.autoTopUp.drain();

    const automatic = await automaticTopUps(app, accountId);
    expect(automatic).toHaveLength(1);
    expect(automatic[0]).toMatchObject({ status: "failed", failureReason: "card_declined" });
    const billing = await billingOf(client);
    expect(billing.balancePence).toBe(995);
    expect(billing.autoTopUp).toMatchObject({
      enabled: false,
      thresholdPence: 1000,
      disabledReason: "card_declined",
      disabledMessage: "The card was declined.",
    });
    expect(billing.autoTopUp.disabledAt).not.toBeNull();
    const account = await api(app, key, "GET", "/api/v1/account");
    expect((account.json.billing as { autoTopUp: unknown }).autoTopUp).toMatchObject({
      enabled: false,
      disabledReason: "card_declined",
    });
    const declinedMails = (await outboxSubjects(client)).filter((subject) => subject.includes("declined"));
    expect(declinedMails).toEqual(["Automatic top-up declined: it is now switched off"]);

    // Switched off: further charges below the threshold try nothing.
    await align(app, key);
    await app.runtime.billing.autoTopUp.drain();
    expect(await automaticTopUps(app, accountId)).toHaveLength(1);

    const manual = await topUpThroughCheckout(app, client, 2500);
    expect(manual.payStatus).toBe(200);
    expect((await billingOf(client)).balancePence).toBe(994 + 2500);

    // Switching it back on (with a working card) clears the reason.
    await saveCard(app, client, cards.success);
    const on = await putAutoTopUp(client, { enabled: true, thresholdPence: 5000, amountPence: 1000 });
    expect(on.body.autoTopUp).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null });
  });

  it("treats insufficient funds like any other card-level refusal", async () => {
    const { client, key, accountId } = await readyDeveloper(app, {
      thresholdPence: 1000,
      card: cards.insufficientFunds,
    });
    await align(app, key);
    await app.runtime.billing.autoTopUp.drain();
    expect((await automaticTopUps(app, accountId))[0]).toMatchObject({
      status: "failed",
      failureReason: "insufficient_funds",
    });
    expect((await billingOf(client)).autoTopUp).toMatchObject({
      enabled: false,
      disabledReason: "insufficient_funds",
    });
  });

  it("tops up when a call is refused for balance", async () => {
    const { client, key, accountId } = await readyDeveloper(app, { thresholdPence: 50 });
    // Spend the whole balance directly, as if the calls had happened.
    while ((await app.runtime.ledger.balance(accountId)) >= 8) {
      const reserved = await app.runtime.ledger.reserve({
        accountId,
        keyId: "key_test",
        kind: "questions",
        requestId: "req_drain",
      });
      if (!reserved.ok) break;
      await app.runtime.ledger.commit(reserved.reservation);
    }
    const refused = await api(app, key, "POST", "/api/v1/questions/generate", {
      topic: "photosynthesis",
      count: 1,
    });
    expect(refused.status).toBe(402);
    await app.runtime.billing.autoTopUp.drain();
    expect((await billingOf(client)).balancePence).toBeGreaterThanOrEqual(1000);
    expect(await automaticTopUps(app, accountId)).toHaveLength(1);
  });
});

describe("closing an account", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(generousLimits);
  }, 120_000);
  afterAll(() => app.close());

  it("cancels the monthly top-up and switches automatic top-up off", async () => {
    const { client, accountId } = await readyDeveloper(app, { thresholdPence: 500 });
    const started = await client.request("POST", "/platform/api/billing/subscription", { amountPence: 1000 });
    const { url } = (await started.json()) as { url: string };
    await payOnProviderPage(app, url);
    const subscriptionId = (await billingOf(client)).subscription?.id ?? "";
    expect(subscriptionId).toMatch(/^sub_/);

    const closed = await client.request("POST", "/platform/api/account/close");
    expect(closed.status).toBe(200);
    expect(await closed.json()).toMatchObject({ closed: true, refundedPence: 2000 });
    expect((await app.runtime.billing.embedded?.subscription(subscriptionId))?.status).toBe("canceled");
    const summary = await app.runtime.billing.billing.summary(accountId);
    expect(summary.subscription?.status).toBe("canceled");
    expect(summary.autoTopUp.enabled).toBe(false);
    expect(summary.balancePence).toBe(0);
  });
});

describe.skipIf(!postgresAvailable)("automatic top-up on two instances sharing PostgreSQL", () => {
  let first: TestApp;
  let second: TestApp;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const database = await createTestDatabase();
    drop = database.drop;
    first = await startTestApp({ DATABASE_URL: database.url, ...generousLimits });
    second = await startTestApp({ DATABASE_URL: database.url, ...generousLimits });
  }, 180_000);
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await drop?.();
  });

  it("buys exactly one top-up when charges on both instances cross at once", async () => {
    const { client, key, accountId } = await readyDeveloper(first, { thresholdPence: 1000 });
    const calls = Array.from({ length: 30 }, (_, index) => align(index % 2 === 0 ? first : second, key));
    const responses = await Promise.all(calls);
    expect(responses.every((response) => response.status === 200)).toBe(true);
    await Promise.all([first.runtime.billing.autoTopUp.drain(), second.runtime.billing.autoTopUp.drain()]);
    const automatic = await automaticTopUps(first, accountId);
    expect(automatic).toHaveLength(1);
    expect(automatic[0]?.status).toBe("confirmed");
    expect((await billingOf(client)).balancePence).toBe(1000 - 30 + 1000);
  });

  it("lets one claim win among many on both instances", async () => {
    const { accountId } = await readyDeveloper(first, { thresholdPence: 5000 });
    const claims = await Promise.all(
      Array.from({ length: 16 }, (_, index) =>
        (index % 2 === 0 ? first : second).runtime.billing.autoTopUp.claim(accountId),
      ),
    );
    expect(claims.filter((id) => id !== null)).toHaveLength(1);
  });

  it("switches off once and emails once when the card is declined on both instances", async () => {
    const { client, key, accountId } = await readyDeveloper(first, {
      thresholdPence: 1000,
      card: cards.declinesWhenCharged,
    });
    await Promise.all(Array.from({ length: 10 }, (_, index) => align(index % 2 === 0 ? first : second, key)));
    await Promise.all([first.runtime.billing.autoTopUp.drain(), second.runtime.billing.autoTopUp.drain()]);
    expect(await automaticTopUps(first, accountId)).toHaveLength(1);
    expect((await billingOf(client)).autoTopUp.enabled).toBe(false);
    const declinedMails = (await outboxSubjects(client)).filter((subject) => subject.includes("declined"));
    expect(declinedMails).toHaveLength(1);
  });
});
