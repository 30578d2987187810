import { describe, expect, it } from "vitest";
import { createDeveloper, type PlatformClient } from "../support/harness.ts";
import { billingOf } from "./clocked-app.ts";
import { lastRequest, open, outboxSubjects, settle, stripe, useStripeApp } from "./stripe-app.ts";

useStripeApp();

describe("monthly top-ups on Stripe", () => {
  async function subscribe(client: PlatformClient, amountPence: number, card = "4242424242424242") {
    const { sessionId } = await open(client, "subscription", { amountPence });
    expect(await stripe.standIn.completeCheckout(sessionId, { card })).toEqual({ ok: true });
    await settle();
    return (await billingOf(client)).subscription?.id ?? "";
  }

  it("starts with a subscription-mode Checkout Session and credits each paid month once", async () => {
    const { client, accountId } = await createDeveloper(stripe.app);
    const { sessionId } = await open(client, "subscription", { amountPence: 2500 });
    expect(lastRequest("POST", "/v1/checkout/sessions")?.params).toMatchObject({
      mode: "subscription",
      line_items: [
        { price_data: { unit_amount: "2500", recurring: { interval: "month" } } },
        { price_data: { unit_amount: "500", recurring: { interval: "month" } } },
      ],
      subscription_data: { metadata: { accountId, amountPence: "2500", vatPence: "500" } },
    });
    await stripe.standIn.completeCheckout(sessionId, { card: "4242424242424242" });
    await settle();
    const billing = await billingOf(client);
    expect(billing.balancePence).toBe(2500);
    expect(billing.subscription).toMatchObject({ status: "active", amountPence: 2500 });
    const subscriptionId = billing.subscription?.id ?? "";
    expect(subscriptionId).toMatch(/^sub_/);
    expect(Date.parse(billing.subscription?.currentPeriodEnd ?? "") - Date.now()).toBeGreaterThan(
      27 * 86_400_000,
    );

    const renewal = await stripe.standIn.renewSubscription(subscriptionId);
    expect(renewal.paid).toBe(true);
    await settle();
    expect((await billingOf(client)).balancePence).toBe(5000);

    // The same month's invoice.paid again, and a month delivered backwards: each month still once.
    const paid = stripe.standIn.events.filter(
      (event) => event.type === "invoice.paid" && event.data.object.id === renewal.invoiceId,
    );
    await stripe.standIn.redeliver(paid[0]?.id ?? "");
    stripe.standIn.holdWebhooks();
    await stripe.standIn.renewSubscription(subscriptionId);
    await stripe.standIn.releaseWebhooks((held) => [...held].reverse());
    await settle();
    expect((await billingOf(client)).balancePence).toBe(7500);
    const lots = (await billingOf(client)).topUps.filter((lot) => lot.method === "subscription");
    expect(lots).toHaveLength(3);
    expect((await billingOf(client)).subscription?.status).toBe("active");
  });

  it("shows a failed renewal as past due, credits nothing for it and emails the developer once", async () => {
    const { client } = await createDeveloper(stripe.app);
    const subscriptionId = await subscribe(client, 1000, "4000002760003184");
    expect((await billingOf(client)).balancePence).toBe(1000);
    const renewal = await stripe.standIn.renewSubscription(subscriptionId);
    expect(renewal.paid).toBe(false);
    await settle();
    const billing = await billingOf(client);
    expect(billing.balancePence).toBe(1000);
    expect(billing.subscription?.status).toBe("past_due");

    const failureMail = "Monthly top-up failed: £10.00 was not added";
    expect((await outboxSubjects(client)).filter((subject) => subject === failureMail)).toHaveLength(1);
    // Stripe re-sending the update changes nothing.
    const updates = stripe.standIn.events.filter(
      (event) => event.type === "customer.subscription.updated" && event.data.object.id === subscriptionId,
    );
    expect(updates.length).toBeGreaterThan(0);
    await stripe.standIn.redeliver(updates.at(-1)?.id ?? "");
    await settle();
    expect((await outboxSubjects(client)).filter((subject) => subject === failureMail)).toHaveLength(1);
  });

  it("cancels at Stripe, keeps the paid month, and ignores what arrives after", async () => {
    const { client } = await createDeveloper(stripe.app);
    const subscriptionId = await subscribe(client, 1000);
    const canceled = await client.request("DELETE", "/platform/api/billing/subscription");
    expect(canceled.status).toBe(200);
    expect(stripe.standIn.requests.at(-1)).toMatchObject({
      method: "DELETE",
      path: `/v1/subscriptions/${subscriptionId}`,
    });
    expect(stripe.standIn.subscription(subscriptionId)?.status).toBe("canceled");
    await settle();
    const billing = await billingOf(client);
    expect(billing.subscription?.status).toBe("canceled");
    expect(billing.balancePence).toBe(1000);
    // The subscription's earlier "created" event, sent again late, does not reopen it.
    const created = stripe.standIn.events.find(
      (event) => event.type === "customer.subscription.created" && event.data.object.id === subscriptionId,
    );
    await stripe.standIn.redeliver(created?.id ?? "");
    expect((await billingOf(client)).subscription?.status).toBe("canceled");
    const again = await client.request("DELETE", "/platform/api/billing/subscription");
    expect(again.status).toBe(404);
  });

  it("refunds a month's unspent part through the invoice's payment", async () => {
    const { client } = await createDeveloper(stripe.app);
    await subscribe(client, 1000);
    const [lot] = (await billingOf(client)).topUps;
    const refunded = await client.request("POST", `/platform/api/billing/topups/${lot?.id}/refund`);
    expect(refunded.status).toBe(200);
    expect(lastRequest("GET", "/v1/invoice_payments")?.params.invoice).toMatch(/^in_/);
    expect(lastRequest("POST", "/v1/refunds")?.params).toMatchObject({ amount: "1200" });
  });
});
