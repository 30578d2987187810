import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fund } from "../support/funding.ts";
import { api, createDeveloper, startTestApp, type TestApp } from "../support/harness.ts";
import {
  createRedisPrefix,
  createTestDatabase,
  postgresAvailable,
  redisAvailable,
} from "../support/services.ts";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy.ts";

function expectContractError(response: Awaited<ReturnType<typeof api>>, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.json).toMatchObject({ error: code, requestId: response.headers.get("request-id") });
  expect(typeof response.json.message).toBe("string");
  expect(response.headers.get("cache-control")).toBe("private, no-store");
}

async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 100));
}

function portOf(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port) };
}

describe.skipIf(!postgresAvailable)("PostgreSQL unreachable", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let proxy: TcpProxy;
  let app: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    proxy = await startTcpProxy(portOf(database.url));
    app = await startTestApp({ DATABASE_URL: proxy.urlFor(database.url) });
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.close();
    await database?.drop();
  });

  it("answers 503 service_unavailable (never 500), charges nothing, and recovers when it returns", async () => {
    const { key, accountId, client } = await createDeveloper(app, { unlocked: true });
    await fund(app, accountId, 100);
    const subject = app.runtime.catalogue.subjects[0]!;
    expect((await api(app, key, "GET", "/api/v1/account")).status).toBe(200);

    await proxy.cut();

    const ready = await fetch(`${app.baseUrl}/readyz`);
    expect(ready.status).toBe(503);
    expectContractError(await api(app, key, "GET", "/api/v1/account"), 503, "service_unavailable");
    expectContractError(
      await api(app, key, "POST", "/api/v1/align", { subjectId: subject.id, text: "osmosis in plant cells" }),
      503,
      "service_unavailable",
    );
    // A key this instance has not seen needs the database to be checked: unavailable, not "invalid".
    const { key: unseen } = await developerUnknownToTheApp();
    expectContractError(await api(app, unseen, "GET", "/api/v1/account"), 503, "service_unavailable");
    const me = await client.request("GET", "/platform/api/me");
    expect(me.status).toBe(503);
    expect(((await me.json()) as { error: string }).error).toBe("service_unavailable");
    // The database is also the signal channel here, so no cached key is trusted while it is down: even the
    // in-memory catalogue answers 503 rather than risk serving a key revoked meanwhile.
    expectContractError(await api(app, key, "GET", "/api/v1/subjects"), 503, "service_unavailable");

    await proxy.restore();
    await until(async () => (await fetch(`${app.baseUrl}/readyz`)).status === 200);
    const account = await api(app, key, "GET", "/api/v1/account");
    expect(account.status).toBe(200);
    expect((account.json.billing as { balancePence: number }).balancePence).toBe(100);
    expect((await api(app, unseen, "GET", "/api/v1/account")).status).toBe(200);
  });

  /** A developer registered by another instance on the same database, so this app has never seen the key. */
  async function developerUnknownToTheApp() {
    const direct = await startTestApp({ DATABASE_URL: database.url });
    try {
      return await createDeveloper(direct);
    } finally {
      await direct.close();
    }
  }
});

describe.skipIf(!redisAvailable)("Redis unreachable", () => {
  const redis = createRedisPrefix();
  let proxy: TcpProxy;
  let app: TestApp;
  const limit = 5;

  beforeAll(async () => {
    proxy = await startTcpProxy(portOf(redis.url));
    app = await startTestApp({
      REDIS_URL: proxy.urlFor(redis.url),
      REDIS_KEY_PREFIX: redis.prefix,
      RATE_LIMIT_GENERAL_PER_MIN: String(limit),
    });
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.close();
    await redis.cleanup();
  });

  it("keeps answering with per-instance limits in memory, and revocations still take effect", async () => {
    const { key, client, keyId } = await createDeveloper(app, { unlocked: true });
    const { key: other } = await createDeveloper(app, { unlocked: true });
    expect((await api(app, other, "GET", "/api/v1/subjects")).status).toBe(200);

    await proxy.cut();
    await until(async () => !app.runtime.bus.healthy());

    for (let request = 0; request < limit; request += 1) {
      const response = await api(app, key, "GET", "/api/v1/subjects");
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit-remaining")).toBe(String(limit - request - 1));
    }
    expectContractError(await api(app, key, "GET", "/api/v1/subjects"), 429, "rate_limited");

    const revoked = await client.request("POST", `/platform/api/keys/${keyId}/revoke`);
    expect(revoked.status).toBe(200);
    expectContractError(await api(app, key, "GET", "/api/v1/account"), 401, "revoked_api_key");
    expect((await api(app, other, "GET", "/api/v1/subjects")).status).toBe(200);

    await proxy.restore();
    await until(async () => app.runtime.bus.healthy());
    expect((await api(app, other, "GET", "/api/v1/subjects")).status).toBe(200);
    expectContractError(await api(app, key, "GET", "/api/v1/account"), 401, "revoked_api_key");
  });
});
