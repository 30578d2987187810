import { and, asc, eq, gt, gte, inArray, lt, sql } from "drizzle-orm";
import { newId, type Clock } from "../shared/ids.ts";
import type { Database } from "../storage/database.ts";
import { accounts, ledgerEntries, lotDraws, reservations, topUps } from "../storage/schema.ts";
import type { Charging, ChargeKind, Reservation, ReserveOutcome } from "./charging.ts";
import type { PriceBook } from "./price-book.ts";

export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

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
    private readonly priceBook: PriceBook,
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
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const pricePence = await this.priceBook.priceAt(input.kind, now, tx);
      const [debited] = await tx
        .update(accounts)
        .set({ balancePence: sql`${accounts.balancePence} - ${pricePence}` })
        .where(and(eq(accounts.id, input.accountId), gte(accounts.balancePence, pricePence)))
        .returning({ balancePence: accounts.balancePence });
      if (!debited) {
        const [row] = await tx
          .select({ balancePence: accounts.balancePence })
          .from(accounts)
          .where(eq(accounts.id, input.accountId));
        return {
          ok: false,
          reason: "insufficient_balance",
          balancePence: row?.balancePence ?? 0,
          pricePence,
        };
      }
      const reservation: Reservation = {
        id: newId("chg"),
        accountId: input.accountId,
        kind: input.kind,
        pricePence,
      };
      await tx.insert(reservations).values({
        ...reservation,
        keyId: input.keyId,
        requestId: input.requestId,
        createdAt: now,
      });
      await this.append(tx, {
        accountId: input.accountId,
        kind: "charge",
        amountPence: -pricePence,
        reservationId: reservation.id,
      });
      await this.drawFromLots(tx, input.accountId, reservation.id, pricePence);
      return { ok: true, reservation, balancePence: debited.balancePence };
    });
  }

  async commit(reservation: Reservation): Promise<{ chargedPence: number; balancePence: number }> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const [committed] = await tx
        .update(reservations)
        .set({ status: "committed", settledAt: now })
        .where(and(eq(reservations.id, reservation.id), eq(reservations.status, "held")))
        .returning({ pricePence: reservations.pricePence, accountId: reservations.accountId });
      if (committed) {
        const [row] = await tx
          .update(accounts)
          .set({ lifetimeSpendPence: sql`${accounts.lifetimeSpendPence} + ${committed.pricePence}` })
          .where(eq(accounts.id, committed.accountId))
          .returning({ balancePence: accounts.balancePence });
        return { chargedPence: committed.pricePence, balancePence: row?.balancePence ?? 0 };
      }
      // Already settled: a repeat commit reports the earlier outcome and moves nothing.
      const [existing] = await tx
        .select({ status: reservations.status, pricePence: reservations.pricePence })
        .from(reservations)
        .where(eq(reservations.id, reservation.id));
      const [account] = await tx
        .select({ balancePence: accounts.balancePence })
        .from(accounts)
        .where(eq(accounts.id, reservation.accountId));
      return {
        chargedPence: existing?.status === "committed" ? existing.pricePence : 0,
        balancePence: account?.balancePence ?? 0,
      };
    });
  }

  async release(reservation: Reservation): Promise<{ balancePence: number }> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const balancePence = await this.releaseIn(tx, reservation.id, now);
      if (balancePence !== null) return { balancePence };
      const [account] = await tx
        .select({ balancePence: accounts.balancePence })
        .from(accounts)
        .where(eq(accounts.id, reservation.accountId));
      return { balancePence: account?.balancePence ?? 0 };
    });
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
      const balance = await this.db.transaction((tx) => this.releaseIn(tx, id, now));
      if (balance !== null) released += 1;
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

  private async releaseIn(tx: Transaction, reservationId: string, now: Date): Promise<number | null> {
    const [released] = await tx
      .update(reservations)
      .set({ status: "released", settledAt: now })
      .where(and(eq(reservations.id, reservationId), eq(reservations.status, "held")))
      .returning({ pricePence: reservations.pricePence, accountId: reservations.accountId });
    if (!released) return null;
    const [account] = await tx
      .update(accounts)
      .set({ balancePence: sql`${accounts.balancePence} + ${released.pricePence}` })
      .where(eq(accounts.id, released.accountId))
      .returning({ balancePence: accounts.balancePence });
    await this.append(tx, {
      accountId: released.accountId,
      kind: "charge_returned",
      amountPence: released.pricePence,
      reservationId,
    });
    const draws = await tx.select().from(lotDraws).where(eq(lotDraws.reservationId, reservationId));
    for (const draw of draws) {
      await tx
        .update(topUps)
        .set({ remainingPence: sql`${topUps.remainingPence} + ${draw.pence}` })
        .where(eq(topUps.id, draw.topUpId));
    }
    return account?.balancePence ?? 0;
  }

  /** Oldest lot first, so a refund can say exactly which money is still unspent. */
  private async drawFromLots(
    tx: Transaction,
    accountId: string,
    reservationId: string,
    pence: number,
  ): Promise<void> {
    const lots = await tx
      .select({ id: topUps.id, remainingPence: topUps.remainingPence })
      .from(topUps)
      .where(
        and(eq(topUps.accountId, accountId), eq(topUps.status, "confirmed"), gt(topUps.remainingPence, 0)),
      )
      .orderBy(asc(topUps.confirmedAt), asc(topUps.id))
      .for("update");
    let owed = pence;
    const draws: { reservationId: string; topUpId: string; pence: number }[] = [];
    for (const lot of lots) {
      if (owed === 0) break;
      const take = Math.min(owed, lot.remainingPence);
      draws.push({ reservationId, topUpId: lot.id, pence: take });
      owed -= take;
    }
    if (draws.length === 0) return;
    await tx.insert(lotDraws).values(draws);
    for (const draw of draws) {
      await tx
        .update(topUps)
        .set({ remainingPence: sql`${topUps.remainingPence} - ${draw.pence}` })
        .where(eq(topUps.id, draw.topUpId));
    }
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
