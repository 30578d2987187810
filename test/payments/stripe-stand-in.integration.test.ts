import { createServer, type Server } from "node:http";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStripeClient } from "../../src/payments/stripe/stripe-provider.ts";
import { parseStripeParams, startStripeStandIn, type StripeStandIn } from "../support/stripe-stand-in.ts";

/** The stand-in answers the real SDK the way Stripe does, for the calls Syllabi makes. */
let standIn: StripeStandIn;
let client: Stripe;
let received: { body: string; signature: string }[] = [];
let receiver: Server;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  client = await createStripeClient({
    secretKey: standIn.secretKey,
    webhookSecret: standIn.webhookSecret,
    apiBase: standIn.url,
  });
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        body: Buffer.concat(chunks).toString(),
        signature: String(request.headers["stripe-signature"]),
      });
      response.writeHead(200).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const address = receiver.address() as { port: number };
  standIn.setWebhookTarget(`http://127.0.0.1:${address.port}/`);
}, 120_000);
afterAll(async () => {
  await standIn.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

describe("the Stripe stand-in", () => {
  it("reads Stripe's bracketed form encoding", () => {
    expect(
      parseStripeParams("a[b][0][c]=1&a[b][1][c]=2&expand[0]=payment_method&metadata[topUpId]=top_1&x=y"),
    ).toEqual({
      a: { b: [{ c: "1" }, { c: "2" }] },
      expand: ["payment_method"],
      metadata: { topUpId: "top_1" },
      x: "y",
    });
  });

  it("refuses a wrong key and unknown parameters the way Stripe does", async () => {
    const wrongKey = await createStripeClient({
      secretKey: "sk_test_wrong",
      webhookSecret: "whsec_x",
      apiBase: standIn.url,
    });
    await expect(wrongKey.customers.create({})).rejects.toBeInstanceOf(
      Stripe.errors.StripeAuthenticationError,
    );
    const unknown = await client.customers
      .create({ metadata: { a: "b" }, shoe_size: 9 } as Stripe.CustomerCreateParams)
      .catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(unknown).toMatchObject({ param: "shoe_size", message: "Received unknown parameter: shoe_size" });
    const missing = await client.setupIntents.retrieve("seti_missing").catch((error: unknown) => error);
    expect(missing).toMatchObject({ code: "resource_missing", statusCode: 404 });
  });

  it("answers a card refusal as a 402 card_error with the PaymentIntent, and replays an idempotency key", async () => {
    const customer = await client.customers.create({ metadata: { accountId: "acct_x" } });
    const session = await client.checkout.sessions.create({
      mode: "setup",
      currency: "gbp",
      customer: customer.id,
      success_url: "http://example.test/done",
    });
    expect(session).toMatchObject({ object: "checkout.session", status: "open", mode: "setup" });
    await standIn.completeCheckout(session.id, { card: "4000000000009995" });
    await standIn.flush();
    const completed = standIn.events.find((event) => event.type === "checkout.session.completed");
    const setupIntent = await client.setupIntents.retrieve(String(completed?.data.object.setup_intent), {
      expand: ["payment_method"],
    });
    const method = setupIntent.payment_method as Stripe.PaymentMethod;
    expect(method.card?.last4).toBe("9995");

    const params: Stripe.PaymentIntentCreateParams = {
      amount: 1000,
      currency: "gbp",
      customer: customer.id,
      payment_method: method.id,
      off_session: true,
      confirm: true,
    };
    const refused = await client.paymentIntents.create(params).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(refused).toMatchObject({
      statusCode: 402,
      code: "card_declined",
      decline_code: "insufficient_funds",
      payment_intent: { status: "requires_payment_method" },
    });

    const first = await client.paymentIntents
      .create(params, { idempotencyKey: "same-key" })
      .catch((error: unknown) => error as Stripe.errors.StripeError);
    const again = await client.paymentIntents
      .create(params, { idempotencyKey: "same-key" })
      .catch((error: unknown) => error as Stripe.errors.StripeError);
    expect((again as Stripe.errors.StripeError).payment_intent?.id).toBe(
      (first as Stripe.errors.StripeError).payment_intent?.id,
    );
    expect((again as Stripe.errors.StripeError).headers?.["idempotent-replayed"]).toBe("true");
  });

  it("signs webhooks so that stripe.webhooks.constructEvent accepts them", async () => {
    await standIn.flush();
    expect(received.length).toBeGreaterThan(0);
    for (const { body, signature } of received) {
      const event = client.webhooks.constructEvent(body, signature, standIn.webhookSecret);
      expect(event.object).toBe("event");
    }
    const [first] = received;
    expect(() =>
      client.webhooks.constructEvent(first?.body ?? "", first?.signature ?? "", "whsec_another"),
    ).toThrow(Stripe.errors.StripeSignatureVerificationError);
    received = [];
  });
});
