import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { billingSettings, topUps } from "../../src/storage/schema.ts";
import { startTestApp, type PlatformClient, type TestApp } from "../support/harness.ts";
import { startStripeStandIn, type StripeStandIn } from "../support/stripe-stand-in.ts";

/** The app configured for Stripe, pointed at a local stand-in that sends its webhooks back to the app. */
export const stripe = {} as { app: TestApp; standIn: StripeStandIn };

/** Starts the stand-in and the app for this test file (one file each: registrations are rate-limited). */
export function useStripeApp(): void {
  beforeAll(async () => {
    stripe.standIn = await startStripeStandIn();
    stripe.app = await startTestApp({
      STRIPE_SECRET_KEY: stripe.standIn.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.standIn.webhookSecret,
      STRIPE_API_BASE: stripe.standIn.url,
      VAT_RATE_PERCENT: "20",
      RATE_LIMIT_AI_PER_MIN: "1000",
      RATE_LIMIT_GENERAL_PER_MIN: "1000",
    });
    stripe.standIn.setWebhookTarget(`${stripe.app.baseUrl}/platform/webhooks/stripe`);
  }, 120_000);
  afterAll(async () => {
    await stripe.app?.close();
    await stripe.standIn?.close();
  });
}

/** Everything Stripe has sent so far is answered, and any automatic top-up work it started has finished. */
export async function settle(): Promise<void> {
  await stripe.standIn.flush();
  await stripe.app.runtime.billing.autoTopUp.drain();
  await stripe.standIn.flush();
}

/** Opens a Checkout Session through the platform API (checkout, payment-method or subscription). */
export async function open(client: PlatformClient, path: string, body?: unknown) {
  const response = await client.request("POST", `/platform/api/billing/${path}`, body);
  expect(response.status).toBe(200);
  const { url, checkoutId } = (await response.json()) as { url: string; checkoutId: string };
  expect(url.startsWith(`${stripe.standIn.url}/c/pay/`)).toBe(true);
  return { url, sessionId: checkoutId };
}

export async function topUp(client: PlatformClient, amountPence: number, card = "4242424242424242") {
  const { sessionId } = await open(client, "checkout", { amountPence });
  const paid = await stripe.standIn.completeCheckout(sessionId, { card });
  await settle();
  return { sessionId, paid };
}

export async function saveCard(client: PlatformClient, card: string) {
  const { sessionId } = await open(client, "payment-method");
  const saved = await stripe.standIn.completeCheckout(sessionId, { card });
  await settle();
  return saved;
}

export function lastRequest(method: string, path: string) {
  return stripe.standIn.requests
    .filter((request) => request.method === method && request.path === path)
    .at(-1);
}

export function deliveriesFor(type: string) {
  return stripe.standIn.deliveries.filter((delivery) => delivery.type === type);
}

/** The events about one Checkout Session's payment: the session's own and its PaymentIntent's. */
export function eventsOfSession(sessionId: string) {
  const { events } = stripe.standIn;
  const intents = new Set(
    events
      .filter((event) => event.data.object.id === sessionId && event.data.object.payment_intent)
      .map((event) => String(event.data.object.payment_intent)),
  );
  return events.filter(
    (event) => event.data.object.id === sessionId || intents.has(String(event.data.object.id)),
  );
}

export async function automaticTopUps(accountId: string) {
  return stripe.app.runtime.storage.db
    .select()
    .from(topUps)
    .where(and(eq(topUps.accountId, accountId), eq(topUps.method, "automatic")));
}

export async function savedCardOf(accountId: string) {
  const [settings] = await stripe.app.runtime.storage.db
    .select()
    .from(billingSettings)
    .where(eq(billingSettings.accountId, accountId));
  return settings;
}

export async function outboxSubjects(client: PlatformClient): Promise<string[]> {
  const response = await client.request("GET", "/platform/api/messages");
  const { messages } = (await response.json()) as { messages: { subject: string }[] };
  return messages.map((message) => message.subject);
}
