/**
 * The one interface the service uses to take money: the embedded provider (local, default) and Stripe both
 * sit behind it. Only a verified webhook event moves a balance.
 */
export interface CheckoutRequest {
  accountId: string;
  amountPence: number;
  /** Returned unchanged in the webhook event, e.g. the top-up id. */
  metadata: Record<string, string>;
}

export type OffSessionOutcome =
  | { ok: true; paymentId: string }
  | { ok: false; reason: "card_declined" | "insufficient_funds" | "no_payment_method" };

export type RefundOutcome = { ok: true; refundId: string } | { ok: false; reason: string };

export type PaymentEvent =
  | {
      id: string;
      type: "checkout.completed";
      data: {
        checkoutId: string;
        paymentId: string | null;
        amountPence: number;
        status: "paid" | "unpaid";
        metadata: Record<string, string>;
      };
    }
  | {
      id: string;
      type: "payment_method.saved";
      data: { accountId: string; paymentMethodId: string; last4: string };
    };

export type WebhookVerification = { ok: true; event: PaymentEvent } | { ok: false; reason: string };

export interface PaymentProvider {
  readonly name: "embedded" | "stripe";
  createCheckout(request: CheckoutRequest): Promise<{ checkoutId: string; url: string }>;
  createSubscription(request: CheckoutRequest): Promise<{ checkoutId: string; url: string }>;
  savePaymentMethod(request: { accountId: string }): Promise<{ checkoutId: string; url: string }>;
  chargeOffSession(request: {
    accountId: string;
    paymentMethodId: string;
    amountPence: number;
    metadata: Record<string, string>;
  }): Promise<OffSessionOutcome>;
  refund(request: { paymentId: string; amountPence: number }): Promise<RefundOutcome>;
  /** Checks the signature over the raw body before anything else is read. */
  verifyWebhook(rawBody: string, headers: Record<string, string | string[] | undefined>): WebhookVerification;
}
