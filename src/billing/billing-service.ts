import { and, desc, eq, inArray } from "drizzle-orm";
import type { KeyService } from "../keys/key-service.ts";
import { formatPounds, type Mailer } from "../mail/mailer.ts";
import type { PaymentEvent, PaymentProvider } from "../payments/provider.ts";
import type { Clock } from "../shared/ids.ts";
import { newId } from "../shared/ids.ts";
import type { Database } from "../storage/database.ts";
import { accounts, billingSettings, paymentEvents, topUps } from "../storage/schema.ts";
import type { AutoTopUpService } from "./auto-top-up.ts";
import { refundWindowMs, type CreditOutcome, type Ledger } from "./ledger.ts";
import type { SubscriptionService } from "./subscriptions.ts";

export type WebhookOutcome = "acted" | "duplicate" | "ignored";

export type RefundResult =
  | { ok: true; refundedPence: number }
  | {
      ok: false;
      reason: "not_found" | "not_confirmed" | "window_closed" | "nothing_to_refund" | "provider_failed";
    };

/** Billing as the portal sees it: checkouts, the webhook that moves money, refunds and closing an account. */
export class BillingService {
  constructor(
    private readonly options: {
      db: Database;
      clock: Clock;
      ledger: Ledger;
      provider: PaymentProvider;
      keys: KeyService;
      mailer: Mailer;
      subscriptions: SubscriptionService;
      autoTopUp: AutoTopUpService;
    },
  ) {}

  async startCheckout(accountId: string, amountPence: number): Promise<{ checkoutId: string; url: string }> {
    const topUpId = newId("top");
    const checkout = await this.options.provider.createCheckout({
      accountId,
      amountPence,
      metadata: { purpose: "topup", topUpId, accountId },
    });
    await this.options.ledger.openTopUp({
      accountId,
      amountPence,
      method: "manual",
      checkoutId: checkout.checkoutId,
      topUpId,
    });
    return checkout;
  }

  /** Opens the provider's page for saving a card; the card is recorded when its webhook arrives. */
  startPaymentMethodSetup(accountId: string): Promise<{ checkoutId: string; url: string }> {
    return this.options.provider.savePaymentMethod({ accountId });
  }

  /** A verified provider event. Acting is idempotent by top-up and payment id; the event id is recorded after. */
  async handleEvent(event: PaymentEvent): Promise<WebhookOutcome> {
    const { db } = this.options;
    const [seen] = await db.select().from(paymentEvents).where(eq(paymentEvents.eventId, event.id));
    if (seen) return "duplicate";
    const outcome = await this.act(event);
    await db
      .insert(paymentEvents)
      .values({
        eventId: event.id,
        provider: this.options.provider.name,
        type: event.type,
        receivedAt: this.options.clock.now(),
      })
      .onConflictDoNothing();
    return outcome;
  }

  private async act(event: PaymentEvent): Promise<WebhookOutcome> {
    switch (event.type) {
      case "payment_method.saved":
        return this.savePaymentMethod(event.data);
      case "checkout.completed":
        return this.completeCheckout(event.data);
      case "checkout.failed":
        return this.failCheckout(event.data);
      case "subscription.period_paid": {
        const credited = await this.options.subscriptions.periodPaid(event.data);
        return this.afterCredit(credited, "monthly top-up");
      }
      case "subscription.updated":
        return (await this.options.subscriptions.applyUpdate(event.data)) === "applied" ? "acted" : "ignored";
    }
  }

  private async savePaymentMethod(
    data: Extract<PaymentEvent, { type: "payment_method.saved" }>["data"],
  ): Promise<WebhookOutcome> {
    const card = {
      paymentMethodId: data.paymentMethodId,
      paymentMethodLast4: data.last4,
      paymentMethodBrand: data.brand ?? null,
    };
    await this.options.db
      .insert(billingSettings)
      .values({ accountId: data.accountId, ...card })
      .onConflictDoUpdate({ target: billingSettings.accountId, set: card });
    return "acted";
  }

  private async completeCheckout(
    data: Extract<PaymentEvent, { type: "checkout.completed" }>["data"],
  ): Promise<WebhookOutcome> {
    const topUpId = data.metadata.topUpId;
    if (data.status !== "paid" || !data.paymentId || !topUpId) return "ignored";
    const [topUp] = await this.options.db.select().from(topUps).where(eq(topUps.id, topUpId));
    // The event must match the top-up it names, amount included.
    if (!topUp || topUp.amountPence !== data.amountPence) return "ignored";
    const [samePayment] = await this.options.db
      .select({ id: topUps.id })
      .from(topUps)
      .where(eq(topUps.paymentId, data.paymentId));
    if (samePayment) return "duplicate";
    const credited = await this.options.ledger.creditTopUp(topUpId, data.paymentId);
    return this.afterCredit(credited, topUp.method === "automatic" ? "automatic top-up" : "top-up");
  }

  /** A payment that can no longer succeed: an automatic top-up's refusal switches automatic top-up off. */
  private async failCheckout(
    data: Extract<PaymentEvent, { type: "checkout.failed" }>["data"],
  ): Promise<WebhookOutcome> {
    const topUpId = data.metadata.topUpId;
    if (!topUpId) return "ignored";
    const [topUp] = await this.options.db.select().from(topUps).where(eq(topUps.id, topUpId));
    if (!topUp || topUp.status !== "pending") return "ignored";
    if (topUp.method === "automatic")
      await this.options.autoTopUp.declined(topUpId, data.reason, data.message);
    else await this.options.ledger.failTopUp(topUpId, data.reason);
    return "acted";
  }

  private async afterCredit(credited: CreditOutcome & { topUpId?: string }, what: string) {
    if (credited.kind !== "credited") return "duplicate";
    if (credited.firstTopUp) await this.options.keys.announceAccountChange(credited.accountId);
    await this.sendReceipt(credited.accountId, what, credited.amountPence, credited.balancePence);
    return "acted";
  }

  private async sendReceipt(accountId: string, what: string, amountPence: number, balancePence: number) {
    const [account] = await this.options.db
      .select({ email: accounts.email })
      .from(accounts)
      .where(eq(accounts.id, accountId));
    if (!account) return;
    await this.options.mailer.send({
      accountId,
      to: account.email,
      subject: `Receipt: ${formatPounds(amountPence)} ${what}`,
      text: `We received your ${what} of ${formatPounds(amountPence)}. Your balance is now ${formatPounds(balancePence)}.`,
    });
  }

  async refundTopUp(accountId: string, topUpId: string, enforceWindow = true): Promise<RefundResult> {
    const debit = await this.options.ledger.debitRefund({ accountId, topUpId, enforceWindow });
    if (!debit.ok) return debit;
    // The provider is called outside the ledger transaction; a failure puts the money back.
    const paid = await this.options.provider.refund({
      paymentId: debit.paymentId,
      amountPence: debit.refundedPence,
    });
    if (!paid.ok) {
      await this.options.ledger.restoreRefund({ accountId, topUpId, amountPence: debit.refundedPence });
      return { ok: false, reason: "provider_failed" };
    }
    return { ok: true, refundedPence: debit.refundedPence };
  }

  /**
   * Revokes every key, marks the account closed, stops the monthly and automatic top-ups and refunds whatever
   * is unspent.
   */
  async closeAccount(accountId: string): Promise<{ refundedPence: number }> {
    await this.options.db
      .update(accounts)
      .set({ status: "closed" })
      .where(and(eq(accounts.id, accountId), eq(accounts.status, "active")));
    await this.options.keys.revokeAll(accountId);
    await this.options.keys.announceAccountChange(accountId);
    // No card is charged for a closed account again: no next month, no automatic top-up.
    await this.options.subscriptions.cancel(accountId);
    await this.options.autoTopUp.switchOff(accountId);
    let refundedPence = 0;
    for (const lot of await this.options.ledger.refundableTopUps(accountId)) {
      const refunded = await this.refundTopUp(accountId, lot.id, false);
      if (refunded.ok) refundedPence += refunded.refundedPence;
    }
    return { refundedPence };
  }

  async summary(accountId: string) {
    const { db, clock } = this.options;
    const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId));
    const [settings] = await db
      .select()
      .from(billingSettings)
      .where(eq(billingSettings.accountId, accountId));
    const lots = await db
      .select()
      .from(topUps)
      .where(and(eq(topUps.accountId, accountId), inArray(topUps.status, ["pending", "confirmed", "failed"])))
      .orderBy(desc(topUps.createdAt))
      .limit(100);
    const now = clock.now().getTime();
    return {
      balancePence: account?.balancePence ?? 0,
      dataUnlocked: Boolean(account?.dataUnlockedAt),
      lifetimeSpendPence: account?.lifetimeSpendPence ?? 0,
      currency: "GBP",
      provider: this.options.provider.name,
      topUps: lots.map((lot) => ({
        id: lot.id,
        amountPence: lot.amountPence,
        method: lot.method,
        status: lot.status,
        failureReason: lot.failureReason,
        createdAt: lot.createdAt.toISOString(),
        confirmedAt: lot.confirmedAt?.toISOString() ?? null,
        refundablePence:
          lot.confirmedAt && now - lot.confirmedAt.getTime() <= refundWindowMs ? lot.remainingPence : 0,
        refundedPence: lot.refundedPence,
      })),
      subscription: await this.options.subscriptions.summary(accountId),
      autoTopUp: await this.options.autoTopUp.settings(accountId),
      paymentMethod: settings?.paymentMethodId
        ? { last4: settings.paymentMethodLast4, brand: settings.paymentMethodBrand }
        : null,
    };
  }
}
