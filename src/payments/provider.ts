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

export interface OffSessionRequest {
  accountId: string;
  paymentMethodId: string;
  amountPence: number;
  metadata: Record<string, string>;
  /** The same key always means the same charge: a retry after a crash or timeout never charges twice. */
  idempotencyKey: string;
}

/**
 * A card-level refusal (declined, insufficient funds, expired, authentication required …) is final for this
 * charge; `provider_unavailable` means the provider could not be reached or failed, and a retry may help.
 */
export type OffSessionOutcome =
  | { ok: true; paymentId: string }
  | { ok: false; kind: "card_error"; code: string; message: string }
  | { ok: false; kind: "no_payment_method"; message: string }
  | { ok: false; kind: "provider_unavailable"; message: string };

export type RefundOutcome = { ok: true; refundId: string } | { ok: false; reason: string };

export type CancelOutcome = { ok: true } | { ok: false; reason: string };

export type SubscriptionStatus = "pending" | "active" | "past_due" | "canceled";

/** What the service acts on, whichever provider sent it. Times are ISO 8601 strings. */
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
      /** A payment that can no longer succeed: an expired checkout, a failed bank payment, a refused off-session charge. */
      id: string;
      type: "checkout.failed";
      data: { checkoutId: string; reason: string; message: string; metadata: Record<string, string> };
    }
  | {
      id: string;
      type: "payment_method.saved";
      data: { accountId: string; paymentMethodId: string; last4: string; brand?: string };
    }
  | {
      /** One paid period of a monthly top-up; `paymentId` is unique per period (invoice or payment id). */
      id: string;
      type: "subscription.period_paid";
      data: {
        subscriptionId: string;
        accountId: string;
        amountPence: number;
        paymentId: string;
        periodStart: string;
        periodEnd: string;
      };
    }
  | {
      id: string;
      type: "subscription.updated";
      data: {
        subscriptionId: string;
        accountId: string;
        amountPence: number;
        status: SubscriptionStatus;
        currentPeriodEnd: string | null;
        /** When the provider made the change: an older change arriving late is not applied. */
        occurredAt: string;
      };
    };

/** `event: null` is a genuine event the service has no use for: acknowledged, nothing done. */
export type WebhookVerification =
  { ok: true; event: PaymentEvent | null; providerEventId: string } | { ok: false; reason: string };

export interface PaymentProvider {
  readonly name: "embedded" | "stripe";
  createCheckout(request: CheckoutRequest): Promise<{ checkoutId: string; url: string }>;
  /** A monthly top-up: the first period is paid through this checkout, later ones renew on the same card. */
  createSubscription(request: CheckoutRequest): Promise<{ checkoutId: string; url: string }>;
  cancelSubscription(subscriptionId: string): Promise<CancelOutcome>;
  savePaymentMethod(request: { accountId: string }): Promise<{ checkoutId: string; url: string }>;
  chargeOffSession(request: OffSessionRequest): Promise<OffSessionOutcome>;
  refund(request: { paymentId: string; amountPence: number }): Promise<RefundOutcome>;
  /** Checks the signature over the raw body before anything else is read. */
  verifyWebhook(
    rawBody: string,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<WebhookVerification>;
  /** Where a developer can see the subscription at the provider (the embedded processor's page), if anywhere. */
  subscriptionPageUrl(subscriptionId: string): string | null;
}
