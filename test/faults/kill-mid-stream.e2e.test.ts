import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staleReservationMs } from "../../src/billing/compose.ts";
import { parseConfig } from "../../src/config.ts";
import { createRuntime } from "../../src/runtime.ts";
import { openStorage } from "../../src/storage/database.ts";
import { ledgerFacts, TestClock } from "../billing/ledger-fixture.ts";
import { testCatalogue } from "../support/harness.ts";
import { postNdjson } from "../support/ndjson-stream.ts";
import { startOpenAiStandIn, type OpenAiStandIn } from "../support/openai-stand-in.ts";
import {
  fundedDeveloperOverHttp,
  startServerProcess,
  type ServerProcess,
} from "../support/server-process.ts";
import { createTestDatabase, postgresAvailable } from "../support/services.ts";

/**
 * kill -9 of `syllabi serve` while a paid chat streams: the price was reserved before the stream began and
 * nothing will settle it, so it must stay held (not lost, not charged twice) until the sweeper returns it.
 * The sweeper returns reservations held longer than `staleReservationMs`; rather than wait that long, the
 * restarted instance runs on a clock moved past that age, and its first sweep, shortly after start, returns it.
 */
describe.skipIf(!postgresAvailable)("an instance killed in the middle of a streamed chat", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let standIn: OpenAiStandIn;
  let server: ServerProcess | null = null;

  beforeAll(async () => {
    database = await createTestDatabase();
    standIn = await startOpenAiStandIn();
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
    await standIn?.close();
    await database?.drop();
  });

  it("leaves the reservation held, and the sweeper returns it so the ledger balances", async () => {
    server = await startServerProcess({
      DATABASE_URL: database.url,
      AI_PROVIDER: "openai-compatible",
      AI_MODEL: "stand-in",
      AI_BASE_URL: standIn.url,
    });
    const { keys, accountId } = await fundedDeveloperOverHttp(server.baseUrl, { topUpPence: 1000 });
    standIn.setFallback(() => ({
      kind: "gated",
      text: "Osmosis is the movement of water across a partially permeable membrane.",
      release: new Promise<void>(() => {}),
    }));

    const stream = await postNdjson(
      `${server.baseUrl}/api/v1/chat`,
      { messages: [{ role: "user", content: "What is osmosis?" }] },
      { authorization: `Bearer ${keys[0]}` },
    );
    expect(JSON.parse((await stream.nextLine())!)).toMatchObject({ type: "start" });

    await server.stop("SIGKILL");
    expect(server.child.signalCode).toBe("SIGKILL");
    server = null;
    await expect(stream.rest()).rejects.toThrow();

    // What the killed instance left behind: the price reserved once, not lost and not charged twice.
    const inspector = await openStorage({ driver: "postgres", url: database.url, poolSize: 1 });
    try {
      const held = await ledgerFacts(inspector, accountId);
      expect(held.reservations).toHaveLength(1);
      expect(held.reservations[0]).toMatchObject({ status: "held", pricePence: 4, charges: 1, returns: 0 });
      expect(held.balancePence).toBe(996);
      expect(held.entriesTotalPence).toBe(996);
    } finally {
      await inspector.close();
    }

    // The restarted instance sweeps by itself shortly after start: nothing here calls the sweeper.
    const clock = new TestClock(new Date(Date.now() + staleReservationMs + 60_000));
    const config = parseConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", DATABASE_URL: database.url });
    const restarted = await createRuntime(config, { clock, catalogue: await testCatalogue() });
    try {
      // Well before the one-minute interval could have run for the first time.
      const giveUpAt = Date.now() + 30_000;
      let swept = await ledgerFacts(restarted.storage, accountId);
      while (swept.reservations[0]?.status === "held" && Date.now() < giveUpAt) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        swept = await ledgerFacts(restarted.storage, accountId);
      }
      // ledgerFacts reads the account and the reservation in separate queries, so the sweep can land between them;
      // the release is one transaction, so a read started after the reservation shows as released is consistent.
      swept = await ledgerFacts(restarted.storage, accountId);
      expect(swept.reservations[0]).toMatchObject({ status: "released", charges: 1, returns: 1 });
      expect(swept.balancePence).toBe(1000);
      expect(swept.entriesTotalPence).toBe(1000);
      expect(swept.lotsRemainingPence).toBe(1000);
      expect(swept.lifetimeSpendPence).toBe(0);
      // Returned once: a further pass finds nothing.
      expect(await restarted.ledger.sweepStaleReservations(staleReservationMs)).toBe(0);
    } finally {
      await restarted.close();
    }
  }, 120_000);
});
