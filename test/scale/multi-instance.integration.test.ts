import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config.ts";
import { createRuntime } from "../../src/runtime.ts";
import type { SignalTopic } from "../../src/signals/signal-bus.ts";
import { ledgerFacts, TestClock } from "../billing/ledger-fixture.ts";
import { fund } from "../support/funding.ts";
import { api, createDeveloper, testCatalogue, type TestApp } from "../support/harness.ts";
import {
  createRedisPrefix,
  createTestDatabase,
  postgresAvailable,
  redisAvailable,
} from "../support/services.ts";

/**
 * Two instances of the real app on one PostgreSQL database (and, in the first configuration, one Redis), as
 * behind a load balancer. Both share one clock that only the test moves, so key caches never expire on their
 * own: a revocation can only reach the other instance through the signal channel.
 */
async function startInstance(env: Record<string, string>, clock: TestClock): Promise<TestApp> {
  const config = parseConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", PORT: "0", HOST: "127.0.0.1", ...env });
  const runtime = await createRuntime(config, { clock, catalogue: await testCatalogue() });
  const baseUrl = await runtime.app.listen({ port: 0, host: "127.0.0.1" });
  return { baseUrl, runtime, close: () => runtime.close() };
}

function nextSignal(app: TestApp, topic: SignalTopic, payload: string): Promise<void> {
  return new Promise((resolve) =>
    app.runtime.bus.subscribe(topic, (received) => {
      if (received === payload) resolve();
    }),
  );
}

const configurations = [
  { name: "signals over Redis pub/sub", redis: true },
  { name: "signals over PostgreSQL LISTEN/NOTIFY", redis: false },
];

describe.each(configurations)("two instances, $name", ({ redis: useRedis }) => {
  const available = postgresAvailable && (!useRedis || redisAvailable);
  const redis = createRedisPrefix();
  const clock = new TestClock(new Date());
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    if (!available) return;
    database = await createTestDatabase();
    const env = {
      DATABASE_URL: database.url,
      RATE_LIMIT_GENERAL_PER_MIN: "1000",
      RATE_LIMIT_AI_PER_MIN: "1000",
      ...(useRedis ? { REDIS_URL: redis.url, REDIS_KEY_PREFIX: redis.prefix } : {}),
    };
    first = await startInstance(env, clock);
    second = await startInstance(env, clock);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    if (useRedis && available) await redis.cleanup();
    await database?.drop();
  });

  it.skipIf(!available)("refuses a key revoked on one instance on the other, by signal", async () => {
    const { client, key, keyId, accountId } = await createDeveloper(first);
    // The other instance has authenticated the key, so it holds it in its cache.
    expect((await api(second, key, "GET", "/api/v1/account")).status).toBe(200);
    expect((await api(second, key, "GET", "/api/v1/account")).status).toBe(200);

    const heard = nextSignal(second, "key-revoked", accountId);
    const revoked = await client.request("POST", `/platform/api/keys/${keyId}/revoke`);
    expect(revoked.status).toBe(200);
    await heard;

    const refused = await api(second, key, "GET", "/api/v1/account");
    expect(refused.status).toBe(401);
    expect(refused.json.error).toBe("revoked_api_key");
    expect((await api(first, key, "GET", "/api/v1/account")).status).toBe(401);
  });

  it.skipIf(!available)("keeps the ledger exact when concurrent paid calls on both overdraw it", async () => {
    const { key, accountId } = await createDeveloper(first);
    const fundedPence = 20;
    await fund(first, accountId, fundedPence);
    const subject = first.runtime.catalogue.subjects[0]!;
    const text = `A lesson on ${subject.topics[0]!.subtopics[0]!.name}.`;
    const calls = 30;

    const responses = await Promise.all(
      Array.from({ length: calls }, (_, index) =>
        api(index % 2 === 0 ? first : second, key, "POST", "/api/v1/align", { subjectId: subject.id, text }),
      ),
    );
    const succeeded = responses.filter((response) => response.status === 200);
    const refused = responses.filter((response) => response.status === 402);
    expect(succeeded).toHaveLength(fundedPence);
    expect(refused).toHaveLength(calls - fundedPence);
    for (const response of refused) expect(response.json.error).toBe("insufficient_balance");
    for (const response of succeeded)
      expect((response.json.usage as { chargedPence: number }).chargedPence).toBe(1);

    for (const instance of [first, second]) {
      const account = await api(instance, key, "GET", "/api/v1/account");
      expect((account.json.billing as { balancePence: number }).balancePence).toBe(0);
    }
    const facts = await ledgerFacts(first.runtime.storage, accountId);
    expect(facts.balancePence).toBe(0);
    expect(facts.entriesTotalPence).toBe(0);
    expect(facts.lotsRemainingPence).toBe(0);
    expect(facts.lifetimeSpendPence).toBe(fundedPence);
    expect(facts.reservations).toHaveLength(fundedPence);
    for (const reservation of facts.reservations) {
      expect(reservation).toMatchObject({ status: "committed", charges: 1, returns: 0 });
    }
  });

  it.skipIf(!available)(
    "runs the usage rollup once per five-minute cycle, whichever instance asks",
    async () => {
      clock.advance(5 * 60 * 1000);
      const runs = await Promise.all([
        first.runtime.billing.usage.runCycle(),
        second.runtime.billing.usage.runCycle(),
        first.runtime.billing.usage.runCycle(),
        second.runtime.billing.usage.runCycle(),
      ]);
      expect(runs.filter(Boolean)).toHaveLength(1);
    },
  );
});
