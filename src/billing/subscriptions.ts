import { and, desc, eq, inArray, lte, ne, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { formatPounds, type Mailer } from "../mail/mailer.ts";
import type { PaymentEvent, PaymentProvider } from "../payments/provider.ts";
import type { Clock } from "../shared/ids.ts";
import type { Database } from "../storage/database.ts";
import { accounts, billingSettings, subscriptions } from "../storage/schema.ts";
import type { CreditOutcome, Ledger } from "./ledger.ts";

type PeriodPaid = Extract<PaymentEvent, { type: "subscription.period_paid" }>["data"];
type SubscriptionUpdate = Extract<PaymentEvent, { type: "subscription.updated" }>["data"];

/** The later of a column and a time (PostgreSQL's greatest ignores nulls). */
function latest(column: AnyPgColumn, at: Date | null): SQL {
  return at ? sql`greatest(${column}, ${at.toISOString()}::timestamptz)` : sql`${column}`;
}

/** An unpaid monthly top-up checkout stops being shown as pending after a day. */
export const pendingSubscriptionMs = 24 * 60 * 60 * 1000;

export type StartOutcome =
  { ok: true; checkoutId: string; url: string } | { ok: false; reason: "subscription_exists" };

export type CancelResult =
  | { ok: true; subscription: SubscriptionSummary }
  | { ok: false; reason: "subscription_not_found" | "provider_failed" };

export interface SubscriptionSummary {
  id: string | null;
  amountPence: number;
  status: "pending" | "active" | "past_due" | "canceled";
  currentPeriodEnd: string | null;
  /** The provider's page for this subscription (the embedded processor offers one in development). */
  providerUrl: string | null;
}

/**
 * Monthly top-ups. The provider owns the schedule and the card; the service keeps one row per provider
 * subscription, credits each paid period once (through the ledger) and applies status changes in the
 * provider's order, with cancellation final. A renewal the provider could not charge (past due) is emailed.
 */
export class SubscriptionService {
  constructor(
    private readonly options: {
      db: Database;
      clock: Clock;
      ledger: Ledger;
      provider: PaymentProvider;
      mailer: Mailer;
    },
  ) {}

  async start(accountId: string, amountPence: number): Promise<StartOutcome> {
    const { db, clock, provider } = this.options;
    const live = await db
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(
        and(eq(subscriptions.accountId, accountId), inArray(subscriptions.status, ["active", "past_due"])),
      );
    if (live.length > 0) return { ok: false, reason: "subscription_exists" };
    const checkout = await provider.createSubscription({
      accountId,
      amountPence,
      metadata: { purpose: "subscription", accountId, amountPence: String(amountPence) },
    });
    const pending = { subscriptionPendingAmountPence: amountPence, subscriptionPendingSince: clock.now() };
    await db
      .insert(billingSettings)
      .values({ accountId, ...pending })
      .onConflictDoUpdate({ target: billingSettings.accountId, set: pending });
    return { ok: true, ...checkout };
  }

  /** Cancels the live subscription at the provider (no further periods), or forgets an unpaid checkout. */
  async cancel(accountId: string): Promise<CancelResult> {
    const { db, clock, provider } = this.options;
    const current = await this.liveRow(accountId);
    if (!current) {
      const [cleared] = await db
        .update(billingSettings)
        .set({ subscriptionPendingAmountPence: null, subscriptionPendingSince: null })
        .where(
          and(
            eq(billingSettings.accountId, accountId),
            sql`${billingSettings.subscriptionPendingSince} is not null`,
          ),
        )
        .returning({ amountPence: billingSettings.subscriptionPendingAmountPence });
      if (!cleared) return { ok: false, reason: "subscription_not_found" };
      return {
        ok: true,
        subscription: {
          id: null,
          amountPence: cleared.amountPence ?? 0,
          status: "canceled",
          currentPeriodEnd: null,
          providerUrl: null,
        },
      };
    }
    const outcome = await provider.cancelSubscription(current.id);
    if (!outcome.ok) return { ok: false, reason: "provider_failed" };
    const now = clock.now();
    const [canceled] = await db
      .update(subscriptions)
      .set({ status: "canceled", canceledAt: now, statusAt: latest(subscriptions.statusAt, now) })
      .where(eq(subscriptions.id, current.id))
      .returning();
    return { ok: true, subscription: this.summarise(canceled ?? current) };
  }

  /**
   * A paid period: its own lot, credited once whatever the provider re-sends. A period paid after a
   * cancellation is still credited (the money was taken); it does not reopen the subscription.
   */
  async periodPaid(data: PeriodPaid): Promise<CreditOutcome> {
    const { db } = this.options;
    const periodEnd = new Date(data.periodEnd);
    await db
      .insert(subscriptions)
      .values({
        id: data.subscriptionId,
        accountId: data.accountId,
        amountPence: data.amountPence,
        status: "active",
        currentPeriodEnd: periodEnd,
        statusAt: new Date(data.periodStart),
      })
      .onConflictDoUpdate({
        target: subscriptions.id,
        set: { currentPeriodEnd: latest(subscriptions.currentPeriodEnd, periodEnd) },
      });
    await this.clearPending(data.accountId);
    return this.options.ledger.creditPeriod({
      accountId: data.accountId,
      amountPence: data.amountPence,
      subscriptionId: data.subscriptionId,
      periodStart: new Date(data.periodStart),
      paymentId: data.paymentId,
    });
  }

  /**
   * A status change: applied unless the subscription is already cancelled or a newer change was applied. The
   * change into past due (a renewal the provider could not charge) is emailed once, however often it is repeated.
   */
  async applyUpdate(data: SubscriptionUpdate): Promise<"applied" | "stale"> {
    const { db, clock } = this.options;
    if (data.status === "pending") return "stale";
    const occurredAt = new Date(data.occurredAt);
    const periodEnd = data.currentPeriodEnd ? new Date(data.currentPeriodEnd) : null;
    const change = await db.transaction(async (tx) => {
      // The status before, locked, so two announcements of the same failed renewal send one email.
      const [before] = await tx
        .select({ status: subscriptions.status })
        .from(subscriptions)
        .where(eq(subscriptions.id, data.subscriptionId))
        .for("update");
      const applied = await tx
        .insert(subscriptions)
        .values({
          id: data.subscriptionId,
          accountId: data.accountId,
          amountPence: data.amountPence,
          status: data.status,
          currentPeriodEnd: periodEnd,
          statusAt: occurredAt,
          ...(data.status === "canceled" ? { canceledAt: clock.now() } : {}),
        })
        .onConflictDoUpdate({
          target: subscriptions.id,
          set: {
            status: data.status,
            currentPeriodEnd: latest(subscriptions.currentPeriodEnd, periodEnd),
            statusAt: occurredAt,
            ...(data.status === "canceled" ? { canceledAt: clock.now() } : {}),
          },
          // Cancellation is final, and an older change never overwrites a newer one.
          setWhere: and(ne(subscriptions.status, "canceled"), lte(subscriptions.statusAt, occurredAt)),
        })
        .returning({ id: subscriptions.id });
      return applied.length === 0 ? null : { statusBefore: before?.status ?? null };
    });
    if (!change) return "stale";
    if (data.status === "active") await this.clearPending(data.accountId);
    if (data.status === "past_due" && change.statusBefore !== "past_due") await this.tellRenewalFailed(data);
    return "applied";
  }

  /** Emails the developer that this month's payment failed, so they do not find out from a refused call. */
  private async tellRenewalFailed(data: SubscriptionUpdate): Promise<void> {
    const [account] = await this.options.db
      .select({ email: accounts.email, balancePence: accounts.balancePence })
      .from(accounts)
      .where(eq(accounts.id, data.accountId));
    if (!account) return;
    await this.options.mailer.send({
      accountId: data.accountId,
      to: account.email,
      subject: `Monthly top-up failed: ${formatPounds(data.amountPence)} was not added`,
      text: [
        `We could not take this month's payment for your monthly top-up of ${formatPounds(data.amountPence)}, so it was not added to your Syllabi balance. The monthly top-up is now past due.`,
        `Your balance is ${formatPounds(account.balancePence)}; paid calls are refused once it runs out. If the payment goes through later, the month is credited as usual.`,
        "You can top up by hand in the developer portal under Billing. To go on topping up monthly with another card, cancel this monthly top-up there and start a new one.",
      ].join("\n\n"),
    });
  }

  /** The subscription to show: the live one, else an unpaid checkout from the last day, else the last one. */
  async summary(accountId: string): Promise<SubscriptionSummary | null> {
    const { db, clock } = this.options;
    const live = await this.liveRow(accountId);
    if (live) return this.summarise(live);
    const [settings] = await db
      .select()
      .from(billingSettings)
      .where(eq(billingSettings.accountId, accountId));
    const since = settings?.subscriptionPendingSince;
    if (since && clock.now().getTime() - since.getTime() < pendingSubscriptionMs) {
      return {
        id: null,
        amountPence: settings.subscriptionPendingAmountPence ?? 0,
        status: "pending",
        currentPeriodEnd: null,
        providerUrl: null,
      };
    }
    const [latest] = await db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.accountId, accountId))
      .orderBy(desc(subscriptions.createdAt))
      .limit(1);
    return latest ? this.summarise(latest) : null;
  }

  private async liveRow(accountId: string) {
    const [row] = await this.options.db
      .select()
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.accountId, accountId),
          or(eq(subscriptions.status, "active"), eq(subscriptions.status, "past_due")),
        ),
      )
      .orderBy(desc(subscriptions.createdAt))
      .limit(1);
    return row ?? null;
  }

  private async clearPending(accountId: string): Promise<void> {
    await this.options.db
      .update(billingSettings)
      .set({ subscriptionPendingAmountPence: null, subscriptionPendingSince: null })
      .where(eq(billingSettings.accountId, accountId));
  }

  private summarise(row: typeof subscriptions.$inferSelect): SubscriptionSummary {
    return {
      id: row.id,
      amountPence: row.amountPence,
      status: row.status as SubscriptionSummary["status"],
      currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
      providerUrl: row.status === "canceled" ? null : this.options.provider.subscriptionPageUrl(row.id),
    };
  }
}
