import { createHash } from "node:crypto";
import { and, asc, eq, isNull, lte, ne, sql } from "drizzle-orm";
import { newId, randomBase62, type Clock } from "../../shared/ids.ts";
import type { Database } from "../../storage/database.ts";
import type { Transaction } from "../../billing/ledger.ts";
import {
  embeddedCheckouts,
  embeddedPayments,
  embeddedSubscriptions,
  embeddedWebhookDeliveries,
} from "../../storage/schema.ts";
import type {
  CancelOutcome,
  CheckoutRequest,
  OffSessionOutcome,
  OffSessionRequest,
  PaymentEvent,
  PaymentProvider,
  RefundOutcome,
  WebhookVerification,
} from "../provider.ts";
import { signatureHeader, signPayload, verifySignature } from "../signature.ts";

/** Test cards: the contract's three, and one that can be saved but is declined whenever it is charged. */
export const testCards = {
  success: "4242424242424242",
  declined: "4000000000000002",
  insufficientFunds: "4000000000009995",
  declinesWhenCharged: "4000000000000341",
} as const;

type CardFailure = "card_declined" | "insufficient_funds" | "invalid_card";

export type SettleOutcome =
  | { kind: "paid"; paymentId: string }
  | { kind: "failed"; reason: CardFailure }
  | { kind: "not_found" }
  | { kind: "already_settled"; status: string };

export type RenewOutcome =
  | { kind: "renewed"; paymentId: string; periodEnd: Date }
  | { kind: "failed"; reason: CardFailure }
  | { kind: "not_due" }
  | { kind: "not_found" };

/** Hands a signed webhook to the service; answers the HTTP status it got back. */
export type WebhookTransport = (request: {
  headers: Record<string, string>;
  body: string;
}) => Promise<number>;

export type CheckoutView = typeof embeddedCheckouts.$inferSelect;
export type SubscriptionView = typeof embeddedSubscriptions.$inferSelect;

const cardFailureMessages: Record<CardFailure, string> = {
  card_declined: "The card was declined.",
  insufficient_funds: "The card has insufficient funds.",
  invalid_card: "The card number is not valid.",
};

function digitsOf(cardNumber: string): string {
  return cardNumber.replace(/[\s-]/g, "");
}

/** What a card does on the form: saving a card is a zero-amount check, so only an outright decline fails it. */
function cardOutcome(cardNumber: string, mode: string): "paid" | CardFailure {
  const digits = digitsOf(cardNumber);
  if (digits === testCards.success) return "paid";
  if (digits === testCards.declined) return "card_declined";
  if (digits === testCards.insufficientFunds) return mode === "setup" ? "paid" : "insufficient_funds";
  if (digits === testCards.declinesWhenCharged) return mode === "setup" ? "paid" : "card_declined";
  return "invalid_card";
}

/** What a saved card (known by its last four digits) does when charged without the customer present. */
function savedCardOutcome(last4: string): "paid" | CardFailure {
  if (last4 === testCards.success.slice(-4)) return "paid";
  if (last4 === testCards.insufficientFunds.slice(-4)) return "insufficient_funds";
  return "card_declined";
}

/** Backoff for undelivered webhooks: 2 s, 4 s, 8 s … capped at an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(2 ** attempts * 1000, 60 * 60 * 1000);
}

/** The same day next month, or the month's last day when it has no such day (31 January → 28/29 February). */
export function addOneMonth(at: Date): Date {
  const next = new Date(at);
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(at.getUTCDate(), lastDay));
  return next;
}

/**
 * A local card processor: checkouts, payments, monthly subscriptions and refunds recorded in its own tables,
 * every outcome delivered to the service as a signed webhook retried until acknowledged.
 */
export class EmbeddedPaymentProvider implements PaymentProvider {
  readonly name = "embedded" as const;

  constructor(
    private readonly options: {
      db: Database;
      clock: Clock;
      webhookSecret: string;
      /** Read each time a link is made: the server's own address is only known once it listens. */
      publicUrl: () => string;
      vatRatePercent: number;
      transport: WebhookTransport;
    },
  ) {}

  private vatFor(amountPence: number): number {
    // VAT in whole pence, rounded half up.
    return Math.round((amountPence * this.options.vatRatePercent) / 100);
  }

  private async openCheckout(
    mode: "payment" | "setup" | "subscription",
    request: CheckoutRequest,
    id = newId("chk"),
  ): Promise<{ checkoutId: string; url: string }> {
    await this.options.db
      .insert(embeddedCheckouts)
      .values({
        id,
        accountId: request.accountId,
        mode,
        amountPence: request.amountPence,
        vatPence: this.vatFor(request.amountPence),
        metadata: request.metadata,
        createdAt: this.options.clock.now(),
      })
      .onConflictDoNothing();
    return { checkoutId: id, url: `${this.options.publicUrl()}/_pay/checkout/${id}` };
  }

  createCheckout(request: CheckoutRequest) {
    return this.openCheckout("payment", request);
  }

  createSubscription(request: CheckoutRequest) {
    return this.openCheckout("subscription", request);
  }

  savePaymentMethod(request: { accountId: string }) {
    return this.openCheckout("setup", { accountId: request.accountId, amountPence: 0, metadata: {} });
  }

  subscriptionPageUrl(subscriptionId: string): string {
    return `${this.options.publicUrl()}/_pay/subscriptions/${subscriptionId}`;
  }

  async checkout(id: string): Promise<CheckoutView | null> {
    const [row] = await this.options.db.select().from(embeddedCheckouts).where(eq(embeddedCheckouts.id, id));
    return row ?? null;
  }

  async subscription(id: string): Promise<SubscriptionView | null> {
    const [row] = await this.options.db
      .select()
      .from(embeddedSubscriptions)
      .where(eq(embeddedSubscriptions.id, id));
    return row ?? null;
  }

  private async queue(tx: Transaction, events: PaymentEvent[]): Promise<void> {
    const now = this.options.clock.now();
    if (events.length === 0) return;
    await tx.insert(embeddedWebhookDeliveries).values(
      events.map((event) => ({
        eventId: event.id,
        payload: JSON.stringify(event),
        nextAttemptAt: now,
        createdAt: now,
      })),
    );
  }

  /** The card form's submit: settles an open checkout once and queues the webhooks for a success. */
  async settle(checkoutId: string, cardNumber: string): Promise<SettleOutcome> {
    const last4 = digitsOf(cardNumber).slice(-4);
    // A declined card leaves the checkout open for another try; nothing is sent to the service.
    return this.settleCheckout(checkoutId, (mode) => cardOutcome(cardNumber, mode), last4, "retry");
  }

  private async settleCheckout(
    checkoutId: string,
    decide: (mode: string) => "paid" | CardFailure,
    last4: string,
    onFailure: "retry" | "final",
  ): Promise<SettleOutcome> {
    const now = this.options.clock.now();
    const result = await this.options.db.transaction(async (tx): Promise<SettleOutcome> => {
      const [checkout] = await tx
        .select()
        .from(embeddedCheckouts)
        .where(eq(embeddedCheckouts.id, checkoutId))
        .for("update");
      if (!checkout) return { kind: "not_found" };
      if (checkout.status !== "open") return { kind: "already_settled", status: checkout.status };
      const outcome = decide(checkout.mode);
      if (outcome !== "paid") {
        await tx
          .update(embeddedCheckouts)
          .set({ failureReason: outcome, ...(onFailure === "final" ? { status: "failed" } : {}) })
          .where(eq(embeddedCheckouts.id, checkoutId));
        if (onFailure === "final") {
          await this.queue(tx, [
            {
              id: newId("evt"),
              type: "checkout.failed",
              data: {
                checkoutId,
                reason: outcome,
                message: cardFailureMessages[outcome],
                metadata: checkout.metadata,
              },
            },
          ]);
        }
        return { kind: "failed", reason: outcome };
      }
      const paymentId = `pay_${randomBase62(20)}`;
      await tx.insert(embeddedPayments).values({
        id: paymentId,
        accountId: checkout.accountId,
        amountPence: checkout.amountPence,
        cardLast4: last4,
        createdAt: now,
      });
      await tx
        .update(embeddedCheckouts)
        .set({ status: "paid", paymentId, failureReason: null })
        .where(eq(embeddedCheckouts.id, checkoutId));
      await this.queue(tx, await this.eventsForPaidCheckout(tx, checkout, paymentId, last4, now));
      return { kind: "paid", paymentId };
    });
    if (result.kind === "paid" || onFailure === "final") await this.deliverDue();
    return result;
  }

  private async eventsForPaidCheckout(
    tx: Transaction,
    checkout: CheckoutView,
    paymentId: string,
    last4: string,
    now: Date,
  ): Promise<PaymentEvent[]> {
    if (checkout.mode === "setup") {
      return [
        {
          id: newId("evt"),
          type: "payment_method.saved",
          data: { accountId: checkout.accountId, paymentMethodId: paymentId, last4, brand: "visa" },
        },
      ];
    }
    if (checkout.mode === "subscription") {
      const subscriptionId = newId("sub");
      const periodEnd = addOneMonth(now);
      await tx.insert(embeddedSubscriptions).values({
        id: subscriptionId,
        accountId: checkout.accountId,
        amountPence: checkout.amountPence,
        vatPence: checkout.vatPence,
        cardPaymentId: paymentId,
        status: "active",
        currentPeriodStart: now,
        currentPeriodEnd: periodEnd,
        metadata: checkout.metadata,
        createdAt: now,
      });
      return [
        this.subscriptionUpdated(
          { id: subscriptionId, accountId: checkout.accountId, amountPence: checkout.amountPence },
          "active",
          periodEnd,
          now,
        ),
        {
          id: newId("evt"),
          type: "subscription.period_paid",
          data: {
            subscriptionId,
            accountId: checkout.accountId,
            amountPence: checkout.amountPence,
            paymentId,
            periodStart: now.toISOString(),
            periodEnd: periodEnd.toISOString(),
          },
        },
      ];
    }
    return [
      {
        id: newId("evt"),
        type: "checkout.completed",
        data: {
          checkoutId: checkout.id,
          paymentId,
          amountPence: checkout.amountPence,
          status: "paid",
          metadata: checkout.metadata,
        },
      },
    ];
  }

  private subscriptionUpdated(
    subscription: { id: string; accountId: string; amountPence: number },
    status: "active" | "past_due" | "canceled",
    periodEnd: Date | null,
    now: Date,
  ): PaymentEvent {
    return {
      id: newId("evt"),
      type: "subscription.updated",
      data: {
        subscriptionId: subscription.id,
        accountId: subscription.accountId,
        amountPence: subscription.amountPence,
        status,
        currentPeriodEnd: periodEnd?.toISOString() ?? null,
        occurredAt: now.toISOString(),
      },
    };
  }

  /**
   * Charges a saved card without the customer. The idempotency key names the checkout, so a repeat returns
   * the first attempt's outcome instead of charging again. A refusal is final and is also sent as a webhook.
   */
  async chargeOffSession(request: OffSessionRequest): Promise<OffSessionOutcome> {
    const [card] = await this.options.db
      .select()
      .from(embeddedPayments)
      .where(
        and(
          eq(embeddedPayments.id, request.paymentMethodId),
          eq(embeddedPayments.accountId, request.accountId),
        ),
      );
    if (!card) return { ok: false, kind: "no_payment_method", message: "There is no saved card." };
    const digest = createHash("sha256").update(request.idempotencyKey).digest("hex").slice(0, 32);
    const { checkoutId } = await this.openCheckout(
      "payment",
      { accountId: request.accountId, amountPence: request.amountPence, metadata: request.metadata },
      `chk_off_${digest}`,
    );
    await this.settleCheckout(checkoutId, () => savedCardOutcome(card.cardLast4), card.cardLast4, "final");
    const checkout = await this.checkout(checkoutId);
    if (checkout?.status === "paid" && checkout.paymentId) return { ok: true, paymentId: checkout.paymentId };
    const code = (checkout?.failureReason ?? "card_declined") as CardFailure;
    return { ok: false, kind: "card_error", code, message: cardFailureMessages[code] ?? code };
  }

  async cancelSubscription(subscriptionId: string): Promise<CancelOutcome> {
    const now = this.options.clock.now();
    return this.options.db.transaction(async (tx): Promise<CancelOutcome> => {
      const [canceled] = await tx
        .update(embeddedSubscriptions)
        .set({ status: "canceled", canceledAt: now })
        .where(
          and(eq(embeddedSubscriptions.id, subscriptionId), ne(embeddedSubscriptions.status, "canceled")),
        )
        .returning();
      if (!canceled) {
        const existing = await tx
          .select({ id: embeddedSubscriptions.id })
          .from(embeddedSubscriptions)
          .where(eq(embeddedSubscriptions.id, subscriptionId));
        return existing.length > 0 ? { ok: true } : { ok: false, reason: "no such subscription" };
      }
      await this.queue(tx, [this.subscriptionUpdated(canceled, "canceled", canceled.currentPeriodEnd, now)]);
      return { ok: true };
    });
  }

  /**
   * Renews every active subscription whose period has ended: one charge on its card per period, a webhook per
   * paid period. A card that fails leaves the subscription past due (no further tries). Safe on several
   * instances: each renewal happens under the subscription's row lock.
   */
  async renewDue(): Promise<number> {
    const now = this.options.clock.now();
    const due = await this.options.db
      .select({ id: embeddedSubscriptions.id })
      .from(embeddedSubscriptions)
      .where(
        and(eq(embeddedSubscriptions.status, "active"), lte(embeddedSubscriptions.currentPeriodEnd, now)),
      )
      .orderBy(asc(embeddedSubscriptions.currentPeriodEnd))
      .limit(50);
    let renewed = 0;
    for (const { id } of due) {
      // A subscription left behind for months catches up one period at a time, as a real processor would.
      for (let period = 0; period < 12; period += 1) {
        const outcome = await this.renewOnce(id);
        if (outcome.kind !== "renewed") break;
        renewed += 1;
      }
    }
    if (renewed > 0 || due.length > 0) await this.deliverDue();
    return renewed;
  }

  /** Development: renews now, as if the current period had run its course (the next one follows it). */
  async advance(subscriptionId: string): Promise<RenewOutcome> {
    const outcome = await this.renewOnce(subscriptionId, { early: true });
    await this.deliverDue();
    return outcome;
  }

  private async renewOnce(subscriptionId: string, options = { early: false }): Promise<RenewOutcome> {
    const now = this.options.clock.now();
    return this.options.db.transaction(async (tx): Promise<RenewOutcome> => {
      const [subscription] = await tx
        .select()
        .from(embeddedSubscriptions)
        .where(eq(embeddedSubscriptions.id, subscriptionId))
        .for("update");
      if (!subscription) return { kind: "not_found" };
      if (subscription.status !== "active") return { kind: "not_due" };
      if (subscription.currentPeriodEnd > now && !options.early) return { kind: "not_due" };
      const [card] = await tx
        .select({ last4: embeddedPayments.cardLast4 })
        .from(embeddedPayments)
        .where(eq(embeddedPayments.id, subscription.cardPaymentId));
      const outcome = savedCardOutcome(card?.last4 ?? "");
      if (outcome !== "paid") {
        await tx
          .update(embeddedSubscriptions)
          .set({ status: "past_due" })
          .where(eq(embeddedSubscriptions.id, subscriptionId));
        await this.queue(tx, [
          this.subscriptionUpdated(subscription, "past_due", subscription.currentPeriodEnd, now),
        ]);
        return { kind: "failed", reason: outcome };
      }
      const periodStart = subscription.currentPeriodEnd;
      const periodEnd = addOneMonth(periodStart);
      const paymentId = `pay_${randomBase62(20)}`;
      await tx.insert(embeddedPayments).values({
        id: paymentId,
        accountId: subscription.accountId,
        amountPence: subscription.amountPence,
        cardLast4: card?.last4 ?? "",
        createdAt: now,
      });
      await tx
        .update(embeddedSubscriptions)
        .set({ currentPeriodStart: periodStart, currentPeriodEnd: periodEnd })
        .where(eq(embeddedSubscriptions.id, subscriptionId));
      await this.queue(tx, [
        {
          id: newId("evt"),
          type: "subscription.period_paid",
          data: {
            subscriptionId,
            accountId: subscription.accountId,
            amountPence: subscription.amountPence,
            paymentId,
            periodStart: periodStart.toISOString(),
            periodEnd: periodEnd.toISOString(),
          },
        },
        this.subscriptionUpdated(subscription, "active", periodEnd, now),
      ]);
      return { kind: "renewed", paymentId, periodEnd };
    });
  }

  async refund(request: { paymentId: string; amountPence: number }): Promise<RefundOutcome> {
    const [updated] = await this.options.db
      .update(embeddedPayments)
      .set({ refundedPence: sql`${embeddedPayments.refundedPence} + ${request.amountPence}` })
      .where(
        and(
          eq(embeddedPayments.id, request.paymentId),
          sql`${embeddedPayments.refundedPence} + ${request.amountPence} <= ${embeddedPayments.amountPence}`,
        ),
      )
      .returning({ id: embeddedPayments.id });
    if (!updated) return { ok: false, reason: "refund exceeds the payment" };
    return { ok: true, refundId: newId("ref") };
  }

  async verifyWebhook(
    rawBody: string,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<WebhookVerification> {
    const header = headers[signatureHeader];
    const verified = verifySignature(
      this.options.webhookSecret,
      rawBody,
      typeof header === "string" ? header : undefined,
      Math.floor(this.options.clock.now().getTime() / 1000),
    );
    if (!verified.ok) return verified;
    try {
      const event = JSON.parse(rawBody) as PaymentEvent;
      return { ok: true, event, providerEventId: event.id };
    } catch {
      return { ok: false, reason: "body is not JSON" };
    }
  }

  /** Sends every due webhook once; a failure is retried later with backoff. Returns how many were acknowledged. */
  async deliverDue(): Promise<number> {
    const now = this.options.clock.now();
    const due = await this.options.db
      .select()
      .from(embeddedWebhookDeliveries)
      .where(
        and(isNull(embeddedWebhookDeliveries.deliveredAt), lte(embeddedWebhookDeliveries.nextAttemptAt, now)),
      )
      .orderBy(asc(embeddedWebhookDeliveries.createdAt))
      .limit(50);
    let delivered = 0;
    for (const row of due) {
      // Claim the attempt by pushing the next one out; another instance seeing the old time loses the race.
      const attempts = row.attempts + 1;
      const [claimed] = await this.options.db
        .update(embeddedWebhookDeliveries)
        .set({ attempts, nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempts)) })
        .where(
          and(
            eq(embeddedWebhookDeliveries.eventId, row.eventId),
            eq(embeddedWebhookDeliveries.attempts, row.attempts),
          ),
        )
        .returning({ eventId: embeddedWebhookDeliveries.eventId });
      if (!claimed) continue;
      const signature = signPayload(
        this.options.webhookSecret,
        row.payload,
        Math.floor(now.getTime() / 1000),
      );
      const status = await this.options
        .transport({
          headers: { "content-type": "application/json", [signatureHeader]: signature },
          body: row.payload,
        })
        .catch(() => 0);
      if (status >= 200 && status < 300) {
        await this.options.db
          .update(embeddedWebhookDeliveries)
          .set({ deliveredAt: this.options.clock.now() })
          .where(eq(embeddedWebhookDeliveries.eventId, row.eventId));
        delivered += 1;
      }
    }
    return delivered;
  }
}
