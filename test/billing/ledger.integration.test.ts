import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, postgresAvailable } from "../support/services.ts";
import { ledgerFacts, openLedgerFixture, type LedgerFixture } from "./ledger-fixture.ts";
import { checkConcurrentReserves, checkLedgerInvariants } from "./ledger-properties.ts";

describe("the ledger on PGlite", () => {
  let fixture: LedgerFixture;
  beforeAll(async () => {
    fixture = await openLedgerFixture();
  });
  afterAll(() => fixture.close());

  it("keeps its invariants over random sequences of movements", async () => {
    await checkLedgerInvariants(fixture, 40);
  }, 120_000);

  it("never lets concurrent reservations overdraw", () => checkConcurrentReserves(fixture));

  it("charges nothing when the balance is below the price", async () => {
    const accountId = await fixture.newAccount();
    await fixture.topUp(accountId, 5);
    const outcome = await fixture.ledger.reserve({
      accountId,
      keyId: "key_test",
      kind: "questions",
      requestId: "req_test",
    });
    expect(outcome).toMatchObject({
      ok: false,
      reason: "insufficient_balance",
      balancePence: 5,
      pricePence: 8,
    });
    const facts = await ledgerFacts(fixture.storage, accountId);
    expect(facts.balancePence).toBe(5);
    expect(facts.reservations).toHaveLength(0);
  });

  it("releases stale reservations in the sweep, and only those", async () => {
    const accountId = await fixture.newAccount();
    await fixture.topUp(accountId, 1000);
    const stale = await fixture.ledger.reserve({ accountId, keyId: "k", kind: "chat", requestId: "r1" });
    fixture.clock.advance(16 * 60_000);
    const fresh = await fixture.ledger.reserve({ accountId, keyId: "k", kind: "chat", requestId: "r2" });
    expect(stale.ok && fresh.ok).toBe(true);
    await fixture.ledger.sweepStaleReservations(15 * 60_000);
    const facts = await ledgerFacts(fixture.storage, accountId);
    expect(facts.balancePence).toBe(996);
    const statuses = new Map(facts.reservations.map((row) => [row.id, row.status]));
    if (stale.ok) expect(statuses.get(stale.reservation.id)).toBe("released");
    if (fresh.ok) expect(statuses.get(fresh.reservation.id)).toBe("held");
    // A commit arriving after the sweep charges nothing.
    if (stale.ok) expect((await fixture.ledger.commit(stale.reservation)).chargedPence).toBe(0);
  });

  it("records the price in force when the call was made", async () => {
    const accountId = await fixture.newAccount();
    await fixture.topUp(accountId, 1000);
    const { PriceBook } = await import("../../src/billing/price-book.ts");
    const book = new PriceBook(fixture.storage.db);
    await book.schedule("align", 2, new Date(fixture.clock.now().getTime() + 60_000));
    const before = await fixture.ledger.reserve({ accountId, keyId: "k", kind: "align", requestId: "r" });
    fixture.clock.advance(120_000);
    const after = await fixture.ledger.reserve({ accountId, keyId: "k", kind: "align", requestId: "r" });
    expect(before.ok && before.reservation.pricePence).toBe(1);
    expect(after.ok && after.reservation.pricePence).toBe(2);
  });

  it("replays, refuses and expires Idempotency-Keys", async () => {
    const store = fixture.idempotency;
    const input = { accountId: "acct_i", key: "k1", bodyHash: "h1" };
    expect(await store.begin(input)).toEqual({ kind: "new" });
    expect(await store.begin(input)).toEqual({ kind: "conflict" });
    await store.complete({ accountId: "acct_i", key: "k1", status: 200, body: { ok: 1 } });
    expect(await store.begin(input)).toEqual({ kind: "replay", status: 200, body: { ok: 1 } });
    expect(await store.begin({ ...input, bodyHash: "h2" })).toEqual({ kind: "conflict" });
    fixture.clock.advance(24 * 60 * 60 * 1000 + 1);
    expect(await store.begin({ ...input, bodyHash: "h2" })).toEqual({ kind: "new" });
  });
});

describe.skipIf(!postgresAvailable)("the ledger on PostgreSQL", () => {
  let fixture: LedgerFixture;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const database = await createTestDatabase();
    drop = database.drop;
    fixture = await openLedgerFixture(database.url);
  });
  afterAll(async () => {
    await fixture.close();
    await drop();
  });

  it("keeps its invariants over random sequences of movements", async () => {
    await checkLedgerInvariants(fixture, 25);
  }, 120_000);

  it("never lets concurrent reservations overdraw", () => checkConcurrentReserves(fixture));
});
