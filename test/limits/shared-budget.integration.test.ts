import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createDeveloper, startTestApp, type TestApp } from "../support/harness.ts";
import {
  createRedisPrefix,
  createTestDatabase,
  postgresAvailable,
  redisAvailable,
} from "../support/services.ts";

/** Two instances on one PostgreSQL and one Redis, as behind a load balancer: one rate-limit budget per key. */
describe.skipIf(!postgresAvailable || !redisAvailable)("rate limits shared through Redis", () => {
  const limit = 6;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const redis = createRedisPrefix();
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: redis.prefix,
      RATE_LIMIT_GENERAL_PER_MIN: String(limit),
    };
    first = await startTestApp(env);
    second = await startTestApp(env);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await redis.cleanup();
    await database?.drop();
  });

  it("counts requests on either instance against one budget and refuses the next on both", async () => {
    expect(first.runtime.rateLimits.backend).toBe("redis");
    const { key } = await createDeveloper(first);
    const instances = [first, second];

    for (let request = 0; request < limit; request += 1) {
      const response = await api(instances[request % 2]!, key, "GET", "/api/v1/account");
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit-limit")).toBe(String(limit));
      expect(response.headers.get("ratelimit-remaining")).toBe(String(limit - request - 1));
    }

    for (const instance of instances) {
      const refused = await api(instance, key, "GET", "/api/v1/account");
      expect(refused.status).toBe(429);
      expect(refused.json.error).toBe("rate_limited");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(refused.json.retryAfterSeconds).toBe(Number(refused.headers.get("retry-after")));
    }
  });

  it("keeps each key's budget its own", async () => {
    const { key: busy } = await createDeveloper(second);
    const { key: quiet } = await createDeveloper(second);
    for (let request = 0; request < limit; request += 1) await api(first, busy, "GET", "/api/v1/account");
    expect((await api(second, busy, "GET", "/api/v1/account")).status).toBe(429);
    const other = await api(first, quiet, "GET", "/api/v1/account");
    expect(other.status).toBe(200);
    expect(other.headers.get("ratelimit-remaining")).toBe(String(limit - 1));
  });
});
