import { and, eq, isNull, lte, sql } from "drizzle-orm";
import { newId, randomBase62, type Clock } from "../../shared/ids.ts";
import type { Database } from "../../storage/database.ts";
import { embeddedCheckouts, embeddedPayments, embeddedWebhookDeliveries } from "../../storage/schema.ts";
import type {
  CheckoutRequest,
  OffSessionOutcome,
  PaymentEvent,
  PaymentProvider,
  RefundOutcome,
  WebhookVerification,
} from "../provider.ts";
import { signatureHeader, signPayload, verifySignature } from "../signature.ts";

/** Test cards, as documented in the contract. */
export const testCards = {
  success: "4242424242424242",
  declined: "4000000000000002",
  insufficientFunds: "4000000000009995",
} as const;

export type SettleOutcome =
  | { kind: "paid"; paymentId: string }
  | { kind: "failed"; reason: "card_declined" | "insufficient_funds" | "invalid_card" }
  | { kind: "not_found" }
  | { kind: "already_settled"; status: string };

/** Hands a signed webhook to the service; answers the HTTP status it got back. */
export type WebhookTransport = (request: {
  headers: Record<string, string>;
  body: string;
}) => Promise<number>;

export type CheckoutView = typeof embeddedCheckouts.$inferSelect;

function cardOutcome(cardNumber: string): "paid" | "card_declined" | "insufficient_funds" | "invalid_card" {
  const digits = cardNumber.replace(/[\s-]/g, "");
  if (digits === testCards.success) return "paid";
  if (digits === testCards.declined) return "card_declined";
  if (digits === testCards.insufficientFunds) return "insufficient_funds";
  return "invalid_card";
}

/** Backoff for undelivered webhooks: 2 s, 4 s, 8 s … capped at an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(2 ** attempts * 1000, 60 * 60 * 1000);
}

/**
 * A local card processor: checkouts, payments and refunds recorded in its own tables, success delivered to the
 * service as a signed webhook retried until acknowledged.
 */
export class EmbeddedPaymentProvider implements PaymentProvider {
  readonly name = "embedded" as const;

  constructor(
    private readonly options: {
      db: Database;
      clock: Clock;
      webhookSecret: string;
      publicUrl: string;
      vatRatePercent: number;
      transport: WebhookTransport;
    },
  ) {}

  private async openCheckout(
    mode: "payment" | "setup" | "subscription",
    request: CheckoutRequest,
  ): Promise<{ checkoutId: string; url: string }> {
    const id = newId("chk");
    await this.options.db.insert(embeddedCheckouts).values({
      id,
      accountId: request.accountId,
      mode,
      amountPence: request.amountPence,
      // VAT in whole pence, rounded half up.
      vatPence: Math.round((request.amountPence * this.options.vatRatePercent) / 100),
      metadata: request.metadata,
      createdAt: this.options.clock.now(),
    });
    return { checkoutId: id, url: `${this.options.publicUrl}/_pay/checkout/${id}` };
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

  async checkout(id: string): Promise<CheckoutView | null> {
    const [row] = await this.options.db.select().from(embeddedCheckouts).where(eq(embeddedCheckouts.id, id));
    return row ?? null;
  }

  /** The card form's submit: settles an open checkout once and queues the webhook for a success. */
  async settle(checkoutId: string, cardNumber: string): Promise<SettleOutcome> {
    const outcome = cardOutcome(cardNumber);
    const now = this.options.clock.now();
    const result = await this.options.db.transaction(async (tx): Promise<SettleOutcome> => {
      const [checkout] = await tx
        .select()
        .from(embeddedCheckouts)
        .where(eq(embeddedCheckouts.id, checkoutId))
        .for("update");
      if (!checkout) return { kind: "not_found" };
      if (checkout.status !== "open") return { kind: "already_settled", status: checkout.status };
      if (outcome !== "paid") {
        // A declined card leaves the checkout open for another try; nothing is sent to the service.
        await tx
          .update(embeddedCheckouts)
          .set({ failureReason: outcome })
          .where(eq(embeddedCheckouts.id, checkoutId));
        return { kind: "failed", reason: outcome };
      }
      const paymentId = `pay_${randomBase62(20)}`;
      await tx.insert(embeddedPayments).values({
        id: paymentId,
        accountId: checkout.accountId,
        amountPence: checkout.amountPence,
        cardLast4: cardNumber.slice(-4),
        createdAt: now,
      });
      await tx
        .update(embeddedCheckouts)
        .set({ status: "paid", paymentId, failureReason: null })
        .where(eq(embeddedCheckouts.id, checkoutId));
      const event: PaymentEvent =
        checkout.mode === "setup"
          ? {
              id: newId("evt"),
              type: "payment_method.saved",
              data: {
                accountId: checkout.accountId,
                paymentMethodId: paymentId,
                last4: cardNumber.slice(-4),
              },
            }
          : {
              id: newId("evt"),
              type: "checkout.completed",
              data: {
                checkoutId,
                paymentId,
                amountPence: checkout.amountPence,
                status: "paid",
                metadata: checkout.metadata,
              },
            };
      await tx
        .insert(embeddedWebhookDeliveries)
        .values({ eventId: event.id, payload: JSON.stringify(event), nextAttemptAt: now, createdAt: now });
      return { kind: "paid", paymentId };
    });
    if (result.kind === "paid") await this.deliverDue();
    return result;
  }

  async chargeOffSession(request: {
    accountId: string;
    paymentMethodId: string;
    amountPence: number;
    metadata: Record<string, string>;
  }): Promise<OffSessionOutcome> {
    const [method] = await this.options.db
      .select()
      .from(embeddedPayments)
      .where(
        and(
          eq(embeddedPayments.id, request.paymentMethodId),
          eq(embeddedPayments.accountId, request.accountId),
        ),
      );
    if (!method) return { ok: false, reason: "no_payment_method" };
    const checkout = await this.openCheckout("payment", request);
    // The saved card's test number decides the outcome, as it would have on the form.
    const card =
      method.cardLast4 === testCards.success.slice(-4)
        ? testCards.success
        : method.cardLast4 === testCards.insufficientFunds.slice(-4)
          ? testCards.insufficientFunds
          : testCards.declined;
    const settled = await this.settle(checkout.checkoutId, card);
    if (settled.kind === "paid") return { ok: true, paymentId: settled.paymentId };
    return {
      ok: false,
      reason:
        settled.kind === "failed" && settled.reason === "insufficient_funds"
          ? "insufficient_funds"
          : "card_declined",
    };
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

  verifyWebhook(
    rawBody: string,
    headers: Record<string, string | string[] | undefined>,
  ): WebhookVerification {
    const header = headers[signatureHeader];
    const verified = verifySignature(
      this.options.webhookSecret,
      rawBody,
      typeof header === "string" ? header : undefined,
      Math.floor(this.options.clock.now().getTime() / 1000),
    );
    if (!verified.ok) return verified;
    try {
      return { ok: true, event: JSON.parse(rawBody) as PaymentEvent };
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
