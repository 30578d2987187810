import { eq, sql } from "drizzle-orm";
import { IdempotencyStore } from "../../src/billing/idempotency.ts";
import { Ledger } from "../../src/billing/ledger.ts";
import { PriceBook } from "../../src/billing/price-book.ts";
import { newId, type Clock } from "../../src/shared/ids.ts";
import { openStorage, type Storage } from "../../src/storage/database.ts";
import { accounts, ledgerEntries, reservations, topUps } from "../../src/storage/schema.ts";

export class TestClock implements Clock {
  constructor(private current = new Date("2026-01-05T09:00:00Z")) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export interface LedgerFixture {
  storage: Storage;
  clock: TestClock;
  ledger: Ledger;
  idempotency: IdempotencyStore;
  newAccount(): Promise<string>;
  topUp(accountId: string, amountPence: number): Promise<string>;
  close(): Promise<void>;
}

/** A ledger on its own storage (PGlite in memory, or the given PostgreSQL database). */
export async function openLedgerFixture(databaseUrl?: string): Promise<LedgerFixture> {
  const storage = await openStorage(
    databaseUrl ? { driver: "postgres", url: databaseUrl, poolSize: 8 } : { driver: "pglite", dataDir: null },
  );
  await storage.migrate();
  const clock = new TestClock();
  const priceBook = new PriceBook(storage.db);
  await priceBook.seedLaunchPrices();
  const ledger = new Ledger(storage.db, clock);
  return {
    storage,
    clock,
    ledger,
    idempotency: new IdempotencyStore(storage.db, clock),
    newAccount: async () => {
      const id = newId("acct");
      await storage.db.insert(accounts).values({
        id,
        email: `${id}@example.test`,
        name: "Ledger test",
        useCase: "property tests",
        passwordHash: "x",
        termsAcceptedAt: new Date(),
      });
      return id;
    },
    topUp: async (accountId, amountPence) => {
      const topUpId = await ledger.openTopUp({ accountId, amountPence, method: "manual", checkoutId: null });
      await ledger.creditTopUp(topUpId, `pay_${topUpId}`);
      return topUpId;
    },
    close: () => storage.close(),
  };
}

/** The invariants every sequence of movements must keep. */
export async function ledgerFacts(storage: Storage, accountId: string) {
  const db = storage.db;
  const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  const [entries] = await db
    .select({ total: sql<string>`coalesce(sum(${ledgerEntries.amountPence}), 0)` })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.accountId, accountId));
  const [lots] = await db
    .select({ remaining: sql<string>`coalesce(sum(${topUps.remainingPence}), 0)` })
    .from(topUps)
    .where(eq(topUps.accountId, accountId));
  const perReservation = await db
    .select({
      id: reservations.id,
      status: reservations.status,
      pricePence: reservations.pricePence,
      charges: sql<string>`(select count(*) from ledger_entries e where e.reservation_id = "reservations"."id" and e.kind = 'charge')`,
      returns: sql<string>`(select count(*) from ledger_entries e where e.reservation_id = "reservations"."id" and e.kind = 'charge_returned')`,
    })
    .from(reservations)
    .where(eq(reservations.accountId, accountId));
  return {
    balancePence: account?.balancePence ?? -1,
    lifetimeSpendPence: account?.lifetimeSpendPence ?? -1,
    entriesTotalPence: Number(entries?.total ?? 0),
    lotsRemainingPence: Number(lots?.remaining ?? 0),
    reservations: perReservation.map((row) => ({
      ...row,
      charges: Number(row.charges),
      returns: Number(row.returns),
    })),
  };
}
