import { PlatformClient } from "../test/support/harness.ts";

let counter = 0;

/**
 * A developer made through the platform API of a running service, with keys and a top-up paid on the
 * embedded provider's form: the same path a person takes in the portal.
 */
export async function fundedDeveloper(
  baseUrl: string,
  options: { keys: number; topUpPence: 1000 | 2500 | 10000 },
): Promise<{ keys: string[] }> {
  const client = new PlatformClient(baseUrl);
  counter += 1;
  const expectStatus = async (response: Response, status: number, what: string) => {
    if (response.status !== status) throw new Error(`${what}: ${response.status} ${await response.text()}`);
    return response;
  };
  await expectStatus(
    await client.request("POST", "/platform/api/register", {
      email: `bench-${process.pid}-${counter}-${Date.now()}@example.test`,
      password: "benchmark password long enough",
      name: "Benchmark",
      useCase: "Measuring the service against a bare baseline",
      acceptTerms: true,
    }),
    201,
    "register",
  );
  const keys: string[] = [];
  for (let index = 0; index < options.keys; index += 1) {
    const created = await expectStatus(
      await client.request("POST", "/platform/api/keys", { name: `bench ${index}` }),
      201,
      "create key",
    );
    keys.push(((await created.json()) as { secret: string }).secret);
  }
  const checkout = await expectStatus(
    await client.request("POST", "/platform/api/billing/checkout", { amountPence: options.topUpPence }),
    200,
    "checkout",
  );
  const { url } = (await checkout.json()) as { url: string };
  await expectStatus(
    await fetch(`${baseUrl}${new URL(url).pathname}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ cardNumber: "4242424242424242" }),
    }),
    200,
    "pay",
  );
  // The provider's webhook moves the balance; it is delivered at once, and retried if it was not acknowledged.
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const billing = await expectStatus(await client.request("GET", "/platform/api/billing"), 200, "billing");
    const { balancePence } = (await billing.json()) as { balancePence: number };
    if (balancePence >= options.topUpPence) return { keys };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("the top-up was paid but the balance did not move");
}
