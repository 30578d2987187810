import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usageKindForRoute } from "../../src/usage/usage.ts";
import { api } from "../support/harness.ts";
import { createDeveloper, startClockedApp, topUpThroughCheckout } from "../payments/clocked-app.ts";

let app: Awaited<ReturnType<typeof startClockedApp>>;
beforeAll(async () => {
  app = await startClockedApp();
});
afterAll(() => app.close());

describe("usage", () => {
  it("maps routes to kinds", () => {
    expect(usageKindForRoute("/api/v1/subjects/:subjectId/tree")).toBe("data");
    expect(usageKindForRoute("/api/v1/genies/:shortName/chat")).toBe("genie_chat");
    expect(usageKindForRoute("/api/v1/questions/generate")).toBe("questions");
    expect(usageKindForRoute("/api/v1/openapi.json")).toBeNull();
  });

  it("records authenticated calls and serves them from the rollup, once per cycle", async () => {
    const { client, key, accountId, keyId } = await createDeveloper(app);
    await topUpThroughCheckout(app, client, 1000);
    await api(app, key, "GET", "/api/v1/subjects");
    await api(app, key, "GET", "/api/v1/search?q=cells");
    await api(app, key, "GET", "/api/v1/account");
    const reservation = await app.runtime.billing.ledger.reserve({
      accountId,
      keyId,
      kind: "questions",
      requestId: "req_usage",
    });
    if (reservation.ok) await app.runtime.billing.ledger.commit(reservation.reservation);

    // Before the rollup, the account's usage is empty (it is refreshed every five minutes).
    const before = await api(app, key, "GET", "/api/v1/account");
    expect((before.json.usage as { totalCalls: number }).totalCalls).toBe(0);

    app.clock.advance(5 * 60 * 1000);
    const [first, second] = await Promise.all([
      app.runtime.billing.usage.runCycle(),
      app.runtime.billing.usage.runCycle(),
    ]);
    expect([first, second].filter(Boolean)).toHaveLength(1);

    const account = await api(app, key, "GET", "/api/v1/account");
    const usage = account.json.usage as {
      refreshedAt: string | null;
      byKind: { kind: string; calls: number; spendPence: number }[];
      totalCalls: number;
      totalSpendPence: number;
    };
    expect(usage.refreshedAt).not.toBeNull();
    expect(usage.byKind.find((row) => row.kind === "data")?.calls).toBe(2);
    expect(usage.byKind.find((row) => row.kind === "account")?.calls).toBe(2);
    expect(usage.totalSpendPence).toBe(8);

    const daily = await client.request("GET", "/platform/api/usage?days=7");
    expect(daily.status).toBe(200);
    const body = (await daily.json()) as {
      series: { day: string; byKind: { kind: string; calls: number }[] }[];
    };
    expect(body.series).toHaveLength(7);
    const today = body.series.at(-1);
    expect(today?.byKind.find((row) => row.kind === "data")?.calls).toBe(2);
  });

  it("counts a burst of calls exactly, in one row per account and kind rather than one per call", async () => {
    const { client, key, accountId } = await createDeveloper(app);
    await topUpThroughCheckout(app, client, 1000);
    await app.runtime.billing.usage.flush();
    const burst = 40;
    const statuses = await Promise.all(
      Array.from({ length: burst }, (_, index) =>
        api(app, key, "GET", index % 2 === 0 ? "/api/v1/subjects" : "/api/v1/subjects?qualification=GCSE"),
      ).map(async (call) => (await call).status),
    );
    expect(statuses.every((status) => status === 200)).toBe(true);
    await app.runtime.billing.usage.flush();

    const result = (await app.runtime.storage.db.execute(sql`
      select count(*)::int as rows, coalesce(sum(calls), 0)::int as calls
        from usage_events where account_id = ${accountId} and kind = 'data'`)) as unknown as {
      rows: { rows: number; calls: number }[];
    };
    const [stored] = result.rows;
    expect(stored?.calls).toBe(burst);
    // A flush may fall in the middle of the burst (they run every second): one row each side of it at most.
    expect(stored?.rows).toBeLessThanOrEqual(2);

    app.clock.advance(5 * 60 * 1000);
    await app.runtime.billing.usage.runCycle();
    const account = await api(app, key, "GET", "/api/v1/account");
    const usage = account.json.usage as { byKind: { kind: string; calls: number }[] };
    expect(usage.byKind.find((row) => row.kind === "data")?.calls).toBe(burst);
  });
});
