import { describe, expect, it } from "vitest";
import { api, createDeveloper } from "../support/harness.ts";
import { billingOf } from "./clocked-app.ts";
import {
  deliveriesFor,
  eventsOfSession,
  lastRequest,
  open,
  settle,
  stripe,
  topUp,
  useStripeApp,
} from "./stripe-app.ts";

useStripeApp();

describe("one-off top-ups through Stripe Checkout", () => {
  it("opens a Checkout Session for the amount plus VAT and credits once when paid", async () => {
    const { client, key, accountId } = await createDeveloper(stripe.app);
    const { sessionId } = await open(client, "checkout", { amountPence: 1000 });
    const created = lastRequest("POST", "/v1/checkout/sessions");
    expect(created?.params).toMatchObject({
      mode: "payment",
      client_reference_id: accountId,
      line_items: [
        { price_data: { currency: "gbp", unit_amount: "1000" }, quantity: "1" },
        { price_data: { currency: "gbp", unit_amount: "200" }, quantity: "1" },
      ],
      metadata: { purpose: "topup", accountId, amountPence: "1000", vatPence: "200" },
      payment_intent_data: { metadata: { accountId, amountPence: "1000" } },
    });
    expect(String(created?.params.customer)).toMatch(/^cus_/);
    expect(created?.idempotencyKey).toBeTruthy();

    expect((await billingOf(client)).balancePence).toBe(0);
    expect(await stripe.standIn.completeCheckout(sessionId, { card: "4242424242424242" })).toEqual({
      ok: true,
    });
    await settle();
    const billing = await billingOf(client);
    expect(billing.balancePence).toBe(1000);
    expect(billing.dataUnlocked).toBe(true);
    expect(billing.topUps[0]).toMatchObject({ method: "manual", status: "confirmed", amountPence: 1000 });
    expect((await api(stripe.app, key, "GET", "/api/v1/subjects")).status).toBe(200);

    // Two events describe this one payment: one credits, the other is recognised by the payment id.
    const outcomes = eventsOfSession(sessionId)
      .map((event) => stripe.standIn.deliveries.find((delivery) => delivery.eventId === event.id))
      .map((delivery) => JSON.parse(delivery?.body ?? "{}").outcome as string);
    expect(outcomes.filter((outcome) => outcome === "acted")).toHaveLength(1);

    // The account's Stripe customer is made once.
    const customersBefore = stripe.standIn.requests.filter(
      (request) => request.path === "/v1/customers",
    ).length;
    await open(client, "checkout", { amountPence: 2500 });
    expect(stripe.standIn.requests.filter((request) => request.path === "/v1/customers")).toHaveLength(
      customersBefore,
    );
  });

  it("credits once whatever the order and however often the events arrive", async () => {
    const { client } = await createDeveloper(stripe.app);
    const { sessionId } = await open(client, "checkout", { amountPence: 2500 });
    stripe.standIn.holdWebhooks();
    await stripe.standIn.completeCheckout(sessionId, { card: "4242424242424242" });
    await stripe.standIn.releaseWebhooks((held) => [...held].reverse());
    await settle();
    for (const event of eventsOfSession(sessionId)) {
      const again = await stripe.standIn.redeliver(event.id);
      expect(again.status).toBe(200);
      expect(["duplicate", "ignored"]).toContain(JSON.parse(again.body).outcome);
    }
    expect((await billingOf(client)).balancePence).toBe(2500);
  });

  it("credits nothing for a completed session that is unpaid, until async_payment_succeeded", async () => {
    const { client } = await createDeveloper(stripe.app);
    const { sessionId } = await open(client, "checkout", { amountPence: 1000 });
    await stripe.standIn.completeCheckout(sessionId, { card: "4242424242424242", asyncPayment: true });
    await settle();
    const completed = stripe.standIn.events.find(
      (event) => event.type === "checkout.session.completed" && event.data.object.id === sessionId,
    );
    expect(completed?.data.object.payment_status).toBe("unpaid");
    const pending = await billingOf(client);
    expect(pending.balancePence).toBe(0);
    expect(pending.dataUnlocked).toBe(false);
    expect(pending.topUps[0]?.status).toBe("pending");

    await stripe.standIn.settleAsyncPayment(sessionId, true);
    await settle();
    expect(deliveriesFor("checkout.session.async_payment_succeeded").length).toBeGreaterThan(0);
    const paid = await billingOf(client);
    expect(paid.balancePence).toBe(1000);
    expect(paid.topUps[0]?.status).toBe("confirmed");
  });

  it("credits once when async_payment_succeeded arrives before the unpaid completion", async () => {
    const { client } = await createDeveloper(stripe.app);
    const { sessionId } = await open(client, "checkout", { amountPence: 1000 });
    stripe.standIn.holdWebhooks();
    await stripe.standIn.completeCheckout(sessionId, { card: "4242424242424242", asyncPayment: true });
    await stripe.standIn.settleAsyncPayment(sessionId, true);
    await stripe.standIn.releaseWebhooks((held) => [...held].reverse());
    await settle();
    expect((await billingOf(client)).balancePence).toBe(1000);
  });

  it("marks the top-up failed when the bank payment fails, and credits nothing", async () => {
    const { client } = await createDeveloper(stripe.app);
    const { sessionId } = await open(client, "checkout", { amountPence: 1000 });
    await stripe.standIn.completeCheckout(sessionId, { card: "4242424242424242", asyncPayment: true });
    await stripe.standIn.settleAsyncPayment(sessionId, false);
    await settle();
    const billing = await billingOf(client);
    expect(billing.balancePence).toBe(0);
    expect(billing.topUps[0]).toMatchObject({ status: "failed", failureReason: "async_payment_failed" });
  });

  it("keeps the top-up open after a card refused on the hosted page, so another card can pay", async () => {
    const { client } = await createDeveloper(stripe.app);
    const { sessionId } = await open(client, "checkout", { amountPence: 1000 });
    const refused = await stripe.standIn.completeCheckout(sessionId, { card: "4000000000000002" });
    expect(refused).toMatchObject({ ok: false, code: "card_declined" });
    await settle();
    expect((await billingOf(client)).topUps[0]?.status).toBe("pending");
    await stripe.standIn.completeCheckout(sessionId, { card: "4242424242424242" });
    await settle();
    expect((await billingOf(client)).balancePence).toBe(1000);
  });

  it("marks an expired checkout's top-up failed", async () => {
    const { client } = await createDeveloper(stripe.app);
    const { sessionId } = await open(client, "checkout", { amountPence: 1000 });
    await stripe.standIn.expireCheckout(sessionId);
    await settle();
    expect((await billingOf(client)).topUps[0]).toMatchObject({ status: "failed", failureReason: "expired" });
  });

  it("answers 503 and opens nothing when Stripe cannot be reached", async () => {
    const { client } = await createDeveloper(stripe.app);
    stripe.standIn.failNextRequests(10);
    const response = await client.request("POST", "/platform/api/billing/checkout", { amountPence: 1000 });
    stripe.standIn.failNextRequests(0);
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: string }).error).toBe("service_unavailable");
    expect((await billingOf(client)).topUps).toEqual([]);
  }, 30_000);

  it("refunds the unspent part with its VAT through a Stripe refund", async () => {
    const { client } = await createDeveloper(stripe.app);
    await topUp(client, 1000);
    const [lot] = (await billingOf(client)).topUps;
    const refunded = await client.request("POST", `/platform/api/billing/topups/${lot?.id}/refund`);
    expect(refunded.status).toBe(200);
    expect(await refunded.json()).toEqual({ refundedPence: 1000 });
    expect(lastRequest("POST", "/v1/refunds")?.params).toMatchObject({ amount: "1200" });
    expect(String(lastRequest("POST", "/v1/refunds")?.params.payment_intent)).toMatch(/^pi_/);
    expect((await billingOf(client)).balancePence).toBe(0);
  });
});

describe("Stripe webhook signatures", () => {
  const event = () => JSON.stringify({ id: "evt_signatureTest", object: "event", type: "customer.created" });

  it("acknowledges a correctly signed event it has no use for", async () => {
    const body = event();
    const delivered = await stripe.standIn.deliverRaw(body, stripe.standIn.sign(body));
    expect(delivered.status).toBe(200);
    expect(JSON.parse(delivered.body).outcome).toBe("ignored");
  });

  it("refuses another secret, a changed body, an old timestamp and a missing header", async () => {
    const body = event();
    const forged = await stripe.standIn.deliverRaw(
      body,
      `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}`,
    );
    expect(forged.status).toBe(400);
    const changed = await stripe.standIn.deliverRaw(
      body.replace("customer", "invoice"),
      stripe.standIn.sign(body),
    );
    expect(changed.status).toBe(400);
    const old = await stripe.standIn.deliverRaw(
      body,
      stripe.standIn.sign(body, Math.floor(Date.now() / 1000) - 3600),
    );
    expect(old.status).toBe(400);
    const response = await fetch(`${stripe.app.baseUrl}/platform/webhooks/stripe`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    expect(response.status).toBe(400);
  });
});
