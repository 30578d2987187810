import { describe, expect, it } from "vitest";
import { api, createDeveloper } from "../support/harness.ts";
import { billingOf } from "./clocked-app.ts";
import {
  automaticTopUps,
  deliveriesFor,
  lastRequest,
  open,
  outboxSubjects,
  saveCard,
  savedCardOf,
  settle,
  stripe,
  topUp,
  useStripeApp,
} from "./stripe-app.ts";

const biologySubject = "aqa-gcse-biology-8461";
useStripeApp();

describe("saved card and automatic top-up on Stripe", () => {
  async function readyDeveloper(card: string, thresholdPence = 1000) {
    const developer = await createDeveloper(stripe.app);
    await topUp(developer.client, 1000);
    expect(await saveCard(developer.client, card)).toEqual({ ok: true });
    const put = await developer.client.request("PUT", "/platform/api/billing/auto-topup", {
      enabled: true,
      thresholdPence,
      amountPence: 1000,
    });
    expect(put.status).toBe(200);
    return developer;
  }

  function align(key: string) {
    return api(stripe.app, key, "POST", "/api/v1/align", { subjectId: biologySubject, text: "diffusion" });
  }

  it("saves a card through a setup-mode Checkout Session", async () => {
    const { client, accountId } = await createDeveloper(stripe.app);
    const { sessionId } = await open(client, "payment-method");
    expect(lastRequest("POST", "/v1/checkout/sessions")?.params).toMatchObject({
      mode: "setup",
      currency: "gbp",
      allowed_payment_method_types: ["card"],
      setup_intent_data: { metadata: { accountId } },
    });
    const refused = await stripe.standIn.completeCheckout(sessionId, { card: "4000000000000002" });
    expect(refused.ok).toBe(false);
    expect((await billingOf(client)).paymentMethod).toBeNull();
    await stripe.standIn.completeCheckout(sessionId, { card: "4242424242424242" });
    await settle();
    expect((await billingOf(client)).paymentMethod).toEqual({ last4: "4242", brand: "visa" });
    expect(
      lastRequest("GET", `/v1/setup_intents/${stripe.standIn.events.at(-1)?.data.object.setup_intent}`)
        ?.params,
    ).toEqual({
      expand: ["payment_method"],
    });
  });

  it("charges the saved card off-session once per crossing, with an idempotency key", async () => {
    const { client, key, accountId } = await readyDeveloper("4242424242424242");
    const responses = await Promise.all(Array.from({ length: 8 }, () => align(key)));
    expect(responses.every((response) => response.status === 200)).toBe(true);
    await settle();
    const automatic = await automaticTopUps(accountId);
    expect(automatic).toHaveLength(1);
    expect(automatic[0]?.status).toBe("confirmed");
    expect((await billingOf(client)).balancePence).toBe(1000 - 8 + 1000);

    const intents = stripe.standIn.requests.filter(
      (request) => request.path === "/v1/payment_intents" && request.params.customer !== undefined,
    );
    const mine = intents.filter(
      (request) => (request.params.metadata as Record<string, string>).accountId === accountId,
    );
    expect(mine).toHaveLength(1);
    expect(mine[0]?.params).toMatchObject({
      amount: "1200",
      currency: "gbp",
      off_session: "true",
      confirm: "true",
    });
    expect(mine[0]?.idempotencyKey).toBe(`automatic-top-up-${automatic[0]?.id}`);

    // Asking Stripe again with the same key answers the first charge: no second payment.
    const settings = await savedCardOf(accountId);
    const again = await stripe.app.runtime.billing.provider.chargeOffSession({
      accountId,
      paymentMethodId: settings?.paymentMethodId ?? "",
      amountPence: 1000,
      metadata: (mine[0]?.params.metadata ?? {}) as Record<string, string>,
      idempotencyKey: `automatic-top-up-${automatic[0]?.id}`,
    });
    expect(again).toEqual({ ok: true, paymentId: automatic[0]?.paymentId });
    await settle();
    expect((await billingOf(client)).balancePence).toBe(1992);
  });

  it.each([
    ["4000000000000341", "card_declined"],
    ["4000000000009995", "insufficient_funds"],
    ["4000002760003184", "authentication_required"],
    ["4000000000000119", "processing_error"],
  ])("falls back to manual top-ups when card %s is refused off-session (%s)", async (card, code) => {
    const { client, key, accountId } = await readyDeveloper(card);
    await align(key);
    await settle();
    const [automatic] = await automaticTopUps(accountId);
    expect(automatic).toMatchObject({ status: "failed", failureReason: code });
    const billing = await billingOf(client);
    expect(billing.balancePence).toBe(999);
    expect(billing.autoTopUp).toMatchObject({ enabled: false, disabledReason: code });
    expect(billing.autoTopUp.disabledMessage).toBeTruthy();
    expect((await outboxSubjects(client)).filter((subject) => subject.includes("declined"))).toHaveLength(1);
    // The payment_intent.payment_failed webhook arrived too, and changed nothing more.
    expect(deliveriesFor("payment_intent.payment_failed").every((delivery) => delivery.status === 200)).toBe(
      true,
    );

    await align(key);
    await settle();
    expect(await automaticTopUps(accountId)).toHaveLength(1);
    await topUp(client, 2500);
    expect((await billingOf(client)).balancePence).toBe(998 + 2500);
  });

  it("switches off when the saved card is no longer attached", async () => {
    const { client, key, accountId } = await readyDeveloper("4242424242424242");
    const settings = await savedCardOf(accountId);
    stripe.standIn.detachPaymentMethod(settings?.paymentMethodId ?? "");
    await align(key);
    await settle();
    expect((await automaticTopUps(accountId))[0]).toMatchObject({
      status: "failed",
      failureReason: "no_payment_method",
    });
    expect((await billingOf(client)).autoTopUp).toMatchObject({
      enabled: false,
      disabledReason: "no_payment_method",
    });
  });

  it("leaves the top-up to be retried, still switched on, when Stripe cannot be reached", async () => {
    const { client, accountId } = await readyDeveloper("4242424242424242", 5000);
    const autoTopUp = stripe.app.runtime.billing.autoTopUp;
    const topUpId = await autoTopUp.claim(accountId);
    expect(topUpId).not.toBeNull();
    stripe.standIn.failNextRequests(3);
    expect(await autoTopUp.attempt(topUpId ?? "")).toEqual({ kind: "retry_later", topUpId });
    expect((await billingOf(client)).autoTopUp.enabled).toBe(true);
    expect(await autoTopUp.attempt(topUpId ?? "")).toEqual({ kind: "charged", topUpId });
    await settle();
    expect((await automaticTopUps(accountId))[0]?.status).toBe("confirmed");
    expect((await billingOf(client)).balancePence).toBe(2000);
  }, 30_000);
});
