import { and, asc, eq, gt, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { newId, type Clock } from "../shared/ids.ts";
import type { Database } from "../storage/database.ts";
import { accounts, ledgerEntries, reservations, topUps } from "../storage/schema.ts";
import type { Charging, ChargeKind, Reservation, ReserveOutcome } from "./charging.ts";
import { launchPriceOf } from "./price-book.ts";

export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** bigint columns arrive as strings from node-postgres and as numbers from PGlite. */
type Numeric = number | string;

/**
 * Calls one of the ledger's SQL functions (drizzle/0004_ledger_functions.sql): a movement is one round trip,
 * which on the paid path is most of what the service adds to a call.
 */
async function callLedgerFunction<Row>(db: Database, query: SQL): Promise<Row> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  const [row] = result.rows;
  if (!row) throw new Error("a ledger function returned no row");
  return row;
}

/**
 * Takes the account's row lock. Every balance movement takes it first, in the same order, so concurrent movements
 * on one account queue rather than deadlock, and automatic top-up reads the balance under it.
 */
export async function lockAccount(tx: Transaction, accountId: string): Promise<void> {
  await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for("update");
}

export const ledgerEntryKinds = [
  "topup_credit",
  "charge",
  "charge_returned",
  "refund",
  "adjustment",
] as const;
export type LedgerEntryKind = (typeof ledgerEntryKinds)[number];

export const refundWindowMs = 14 * 24 * 60 * 60 * 1000;

export type CreditOutcome =
  | { kind: "credited"; accountId: string; amountPence: number; balancePence: number; firstTopUp: boolean }
  | { kind: "already_credited" }
  | { kind: "unknown_top_up" };

export type RefundDebitOutcome =
  | { ok: true; refundedPence: number; paymentId: string; accountId: string }
  | { ok: false; reason: "not_found" | "not_confirmed" | "window_closed" | "nothing_to_refund" };

/**
 * The ledger: every movement is one transaction that appends an entry and moves `accounts.balance_pence` in
 * step, with the "balance >= amount" condition inside the same UPDATE, so concurrent debits can never take the
 * balance below zero. A reservation debits at once (a `charge` entry); a release appends `charge_returned`.
 */
export class Ledger implements Charging {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  async balance(accountId: string): Promise<number> {
    const [row] = await this.db
      .select({ balancePence: accounts.balancePence })
      .from(accounts)
      .where(eq(accounts.id, accountId));
    return row?.balancePence ?? 0;
  }

  /** Records a pending top-up before the customer pays; the balance moves only on confirmation. */
  async openTopUp(input: {
    accountId: string;
    amountPence: number;
    method: "manual" | "subscription" | "automatic";
    checkoutId: string | null;
    topUpId?: string;
  }): Promise<string> {
    const id = input.topUpId ?? newId("top");
    await this.db.insert(topUps).values({
      id,
      accountId: input.accountId,
      amountPence: input.amountPence,
      method: input.method,
      checkoutId: input.checkoutId,
      createdAt: this.clock.now(),
    });
    return id;
  }

  /**
   * Marks a pending top-up failed (declined, expired). Answers the row when this call made the change, so
   * whatever follows a failure (an email, switching automatic top-up off) happens once.
   */
  async failTopUp(
    topUpId: string,
    reason: string,
  ): Promise<{ accountId: string; method: string; amountPence: number } | null> {
    const [failed] = await this.db
      .update(topUps)
      .set({ status: "failed", failureReason: reason })
      .where(and(eq(topUps.id, topUpId), eq(topUps.status, "pending")))
      .returning({ accountId: topUps.accountId, method: topUps.method, amountPence: topUps.amountPence });
    return failed ?? null;
  }

  /**
   * Confirms a top-up: a new lot, a credit entry and the balance, in one transaction, once. A top-up marked
   * failed is still credited if its payment arrives after all: money received is never left uncredited.
   */
  async creditTopUp(topUpId: string, paymentId: string): Promise<CreditOutcome> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const [named] = await tx
        .select({ accountId: topUps.accountId })
        .from(topUps)
        .where(eq(topUps.id, topUpId));
      if (!named) return { kind: "unknown_top_up" };
      // The account's row first, as every movement takes it: automatic top-up reads the balance under it.
      await lockAccount(tx, named.accountId);
      const [lot] = await tx
        .update(topUps)
        .set({
          status: "confirmed",
          confirmedAt: now,
          paymentId,
          failureReason: null,
          remainingPence: sql`${topUps.amountPence}`,
        })
        .where(and(eq(topUps.id, topUpId), inArray(topUps.status, ["pending", "failed"])))
        .returning({ accountId: topUps.accountId, amountPence: topUps.amountPence });
      if (!lot) return { kind: "already_credited" };
      return this.creditLot(tx, topUpId, lot.accountId, lot.amountPence, now);
    });
  }

  /**
   * Credits one paid period of a monthly top-up as its own lot. The period and the payment are each unique
   * among lots, so a repeated or re-sent event for the same period credits nothing.
   */
  async creditPeriod(input: {
    accountId: string;
    amountPence: number;
    subscriptionId: string;
    periodStart: Date;
    paymentId: string;
  }): Promise<CreditOutcome & { topUpId?: string }> {
    const now = this.clock.now();
    const topUpId = newId("top");
    return this.db.transaction(async (tx) => {
      await lockAccount(tx, input.accountId);
      const inserted = await tx
        .insert(topUps)
        .values({
          id: topUpId,
          accountId: input.accountId,
          amountPence: input.amountPence,
          method: "subscription",
          status: "confirmed",
          paymentId: input.paymentId,
          subscriptionId: input.subscriptionId,
          periodStart: input.periodStart,
          remainingPence: input.amountPence,
          createdAt: now,
          confirmedAt: now,
        })
        .onConflictDoNothing()
        .returning({ id: topUps.id });
      if (inserted.length === 0) return { kind: "already_credited" };
      return { ...(await this.creditLot(tx, topUpId, input.accountId, input.amountPence, now)), topUpId };
    });
  }

  private async creditLot(
    tx: Transaction,
    topUpId: string,
    accountId: string,
    amountPence: number,
    now: Date,
  ): Promise<CreditOutcome> {
    await this.append(tx, { accountId, kind: "topup_credit", amountPence, topUpId });
    const [before] = await tx
      .select({ dataUnlockedAt: accounts.dataUnlockedAt })
      .from(accounts)
      .where(eq(accounts.id, accountId))
      .for("update");
    const [after] = await tx
      .update(accounts)
      .set({
        balancePence: sql`${accounts.balancePence} + ${amountPence}`,
        dataUnlockedAt: sql`coalesce(${accounts.dataUnlockedAt}, ${now.toISOString()}::timestamptz)`,
      })
      .where(eq(accounts.id, accountId))
      .returning({ balancePence: accounts.balancePence });
    return {
      kind: "credited",
      accountId,
      amountPence,
      balancePence: after?.balancePence ?? 0,
      firstTopUp: before?.dataUnlockedAt === null,
    };
  }

  async reserve(input: {
    accountId: string;
    keyId: string;
    kind: ChargeKind;
    requestId: string;
  }): Promise<ReserveOutcome> {
    const reservationId = newId("chg");
    const row = await callLedgerFunction<{ reserved: boolean; balance_pence: Numeric; price_pence: Numeric }>(
      this.db,
      sql`select * from ledger_reserve(${input.accountId}, ${input.keyId}, ${input.kind}, ${input.requestId},
        ${reservationId}, ${newId("ent")}, ${this.nowParameter()}, ${launchPriceOf(input.kind)})`,
    );
    const balancePence = Number(row.balance_pence);
    const pricePence = Number(row.price_pence);
    if (!row.reserved) return { ok: false, reason: "insufficient_balance", balancePence, pricePence };
    return {
      ok: true,
      reservation: { id: reservationId, accountId: input.accountId, kind: input.kind, pricePence },
      balancePence,
    };
  }

  async commit(reservation: Reservation): Promise<{ chargedPence: number; balancePence: number }> {
    const row = await callLedgerFunction<{ charged_pence: Numeric; balance_pence: Numeric }>(
      this.db,
      sql`select * from ledger_commit(${reservation.id}, ${reservation.accountId}, ${this.nowParameter()})`,
    );
    return { chargedPence: Number(row.charged_pence), balancePence: Number(row.balance_pence) };
  }

  async release(reservation: Reservation): Promise<{ balancePence: number }> {
    const { balancePence } = await this.releaseReservation(reservation.id, reservation.accountId);
    return { balancePence };
  }

  /**
   * Releases reservations held longer than `olderThanMs`: a held reservation that old means the instance died
   * mid-call, which is a failure on our side, so the price goes back.
   */
  async sweepStaleReservations(olderThanMs: number): Promise<number> {
    const now = this.clock.now();
    const cutoff = new Date(now.getTime() - olderThanMs);
    const stale = await this.db
      .select({ id: reservations.id })
      .from(reservations)
      .where(and(eq(reservations.status, "held"), lt(reservations.createdAt, cutoff)))
      .limit(500);
    let released = 0;
    for (const { id } of stale) {
      if ((await this.releaseReservation(id, null)).released) released += 1;
    }
    return released;
  }

  /**
   * Takes the unspent part of a confirmed top-up back out of the balance for a refund. The caller then asks
   * the provider to pay it out (outside this transaction) and restores it with an adjustment if that fails.
   */
  async debitRefund(input: {
    accountId: string;
    topUpId: string;
    enforceWindow: boolean;
  }): Promise<RefundDebitOutcome> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      // Lock the account row first: the same order as reserve, so the two never deadlock.
      await lockAccount(tx, input.accountId);
      const [lot] = await tx
        .select()
        .from(topUps)
        .where(and(eq(topUps.id, input.topUpId), eq(topUps.accountId, input.accountId)))
        .for("update");
      if (!lot) return { ok: false, reason: "not_found" };
      if (lot.status !== "confirmed" || !lot.confirmedAt || !lot.paymentId)
        return { ok: false, reason: "not_confirmed" };
      if (input.enforceWindow && now.getTime() - lot.confirmedAt.getTime() > refundWindowMs)
        return { ok: false, reason: "window_closed" };
      const amount = lot.remainingPence;
      if (amount <= 0) return { ok: false, reason: "nothing_to_refund" };
      const [debited] = await tx
        .update(accounts)
        .set({ balancePence: sql`${accounts.balancePence} - ${amount}` })
        .where(and(eq(accounts.id, input.accountId), gte(accounts.balancePence, amount)))
        .returning({ balancePence: accounts.balancePence });
      if (!debited) return { ok: false, reason: "nothing_to_refund" };
      await tx
        .update(topUps)
        .set({
          remainingPence: sql`${topUps.remainingPence} - ${amount}`,
          refundedPence: sql`${topUps.refundedPence} + ${amount}`,
        })
        .where(eq(topUps.id, lot.id));
      await this.append(tx, {
        accountId: input.accountId,
        kind: "refund",
        amountPence: -amount,
        topUpId: lot.id,
      });
      return { ok: true, refundedPence: amount, paymentId: lot.paymentId, accountId: input.accountId };
    });
  }

  /** Puts a refund back when the provider could not pay it out. */
  async restoreRefund(input: { accountId: string; topUpId: string; amountPence: number }): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx
        .update(accounts)
        .set({ balancePence: sql`${accounts.balancePence} + ${input.amountPence}` })
        .where(eq(accounts.id, input.accountId));
      await tx
        .update(topUps)
        .set({
          remainingPence: sql`${topUps.remainingPence} + ${input.amountPence}`,
          refundedPence: sql`${topUps.refundedPence} - ${input.amountPence}`,
        })
        .where(eq(topUps.id, input.topUpId));
      await this.append(tx, {
        accountId: input.accountId,
        kind: "adjustment",
        amountPence: input.amountPence,
        topUpId: input.topUpId,
        note: "refund failed at the provider",
      });
    });
  }

  async refundableTopUps(accountId: string): Promise<{ id: string; remainingPence: number }[]> {
    return this.db
      .select({ id: topUps.id, remainingPence: topUps.remainingPence })
      .from(topUps)
      .where(
        and(eq(topUps.accountId, accountId), eq(topUps.status, "confirmed"), gt(topUps.remainingPence, 0)),
      )
      .orderBy(asc(topUps.confirmedAt));
  }

  /** Returns a held reservation to the lots it came from; `released` is false if it was already settled. */
  private async releaseReservation(
    reservationId: string,
    accountId: string | null,
  ): Promise<{ released: boolean; balancePence: number }> {
    const row = await callLedgerFunction<{ released: boolean; balance_pence: Numeric }>(
      this.db,
      sql`select * from ledger_release(${reservationId}, ${accountId}, ${newId("ent")}, ${this.nowParameter()})`,
    );
    return { released: row.released, balancePence: Number(row.balance_pence) };
  }

  private nowParameter() {
    return sql`${this.clock.now().toISOString()}::timestamptz`;
  }

  private async append(
    tx: Transaction,
    entry: {
      accountId: string;
      kind: LedgerEntryKind;
      amountPence: number;
      topUpId?: string;
      reservationId?: string;
      note?: string;
    },
  ): Promise<void> {
    await tx.insert(ledgerEntries).values({ id: newId("ent"), createdAt: this.clock.now(), ...entry });
  }

  /** For reports and tests: the sum of an account's entries, which always equals its balance. */
  async entriesTotal(accountIds: string[]): Promise<Map<string, number>> {
    if (accountIds.length === 0) return new Map();
    const rows = await this.db
      .select({ accountId: ledgerEntries.accountId, total: sql<string>`sum(${ledgerEntries.amountPence})` })
      .from(ledgerEntries)
      .where(inArray(ledgerEntries.accountId, accountIds))
      .groupBy(ledgerEntries.accountId);
    return new Map(rows.map((row) => [row.accountId, Number(row.total)]));
  }
}
