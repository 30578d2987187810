import { parseConfig } from "../../src/config.ts";
import { createRuntime } from "../../src/runtime.ts";
import { signPayload } from "../../src/payments/signature.ts";
import {
  api,
  createDeveloper,
  testCatalogue,
  type PlatformClient,
  type TestApp,
} from "../support/harness.ts";
import { TestClock } from "../billing/ledger-fixture.ts";

/** Like startTestApp, with a clock the test can move (refund windows, sweeps, rollups). */
export async function startClockedApp(
  env: Record<string, string> = {},
): Promise<TestApp & { clock: TestClock }> {
  const clock = new TestClock(new Date());
  const config = parseConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", PORT: "0", HOST: "127.0.0.1", ...env });
  const runtime = await createRuntime(config, {
    clock,
    inMemoryDatabase: true,
    catalogue: await testCatalogue(),
  });
  const address = await runtime.app.listen({ port: 0, host: "127.0.0.1" });
  return { baseUrl: address, runtime, clock, close: () => runtime.close() };
}

/** Opens a checkout through the platform API and pays it on the embedded provider's form (JSON). */
export async function topUpThroughCheckout(
  app: TestApp,
  client: PlatformClient,
  amountPence: number,
  cardNumber = "4242424242424242",
): Promise<{ checkoutId: string; payStatus: number; payBody: Record<string, unknown> }> {
  const opened = await client.request("POST", "/platform/api/billing/checkout", { amountPence });
  if (opened.status !== 200) throw new Error(`checkout failed: ${opened.status} ${await opened.text()}`);
  const { checkoutId, url } = (await opened.json()) as { checkoutId: string; url: string };
  const paid = await fetch(`${app.baseUrl}${new URL(url).pathname}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ cardNumber }),
  });
  return { checkoutId, payStatus: paid.status, payBody: (await paid.json()) as Record<string, unknown> };
}

/** Pays an embedded provider page (checkout, monthly top-up or card setup) with a test card, as JSON. */
export async function payOnProviderPage(
  app: TestApp,
  url: string,
  cardNumber = "4242424242424242",
): Promise<{ status: number; body: Record<string, unknown> }> {
  const paid = await fetch(`${app.baseUrl}${new URL(url).pathname}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ cardNumber }),
  });
  return { status: paid.status, body: (await paid.json()) as Record<string, unknown> };
}

/** Saves a card through the platform API and the embedded provider's setup page. */
export async function saveCard(app: TestApp, client: PlatformClient, cardNumber = "4242424242424242") {
  const opened = await client.request("POST", "/platform/api/billing/payment-method");
  if (opened.status !== 200) throw new Error(`card setup failed: ${opened.status} ${await opened.text()}`);
  const { url } = (await opened.json()) as { url: string };
  return payOnProviderPage(app, url, cardNumber);
}

export async function billingOf(client: PlatformClient) {
  const response = await client.request("GET", "/platform/api/billing");
  return (await response.json()) as {
    balancePence: number;
    dataUnlocked: boolean;
    lifetimeSpendPence: number;
    topUps: {
      id: string;
      amountPence: number;
      method: string;
      status: string;
      failureReason: string | null;
      refundablePence: number;
      refundedPence: number;
    }[];
    subscription: {
      id: string | null;
      amountPence: number;
      status: string;
      currentPeriodEnd: string | null;
      providerUrl: string | null;
    } | null;
    autoTopUp: {
      enabled: boolean;
      thresholdPence: number | null;
      amountPence: number | null;
      disabledReason: string | null;
      disabledMessage: string | null;
      disabledAt: string | null;
    };
    paymentMethod: { last4: string; brand: string | null } | null;
  };
}

export async function postWebhook(app: TestApp, rawBody: string, signature: string) {
  return api(app, null, "POST", "/platform/webhooks/embedded", rawBody, { "embedded-signature": signature });
}

export function sign(secret: string, rawBody: string, at = new Date()): string {
  return signPayload(secret, rawBody, Math.floor(at.getTime() / 1000));
}

export { createDeveloper };
