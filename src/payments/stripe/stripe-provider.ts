import { eq } from "drizzle-orm";
import type Stripe from "stripe";
import type { Clock } from "../../shared/ids.ts";
import type { Database } from "../../storage/database.ts";
import { stripeCustomers } from "../../storage/schema.ts";
import type {
  CancelOutcome,
  CheckoutRequest,
  OffSessionOutcome,
  OffSessionRequest,
  PaymentEvent,
  PaymentProvider,
  RefundOutcome,
  SubscriptionStatus,
  WebhookVerification,
} from "../provider.ts";

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Another API address (tests use a local stand-in); https://api.stripe.com otherwise. */
  apiBase?: string | undefined;
}

/** Stripe signs `t=<unix seconds>,v1=<hex HMAC>`; an older signature than this is refused (replays). */
export const stripeSignatureToleranceSeconds = 300;

/**
 * The SDK, pointed at the configured address: the one place the service builds a Stripe client. The SDK is loaded
 * here, when Stripe is configured, rather than at start-up by every instance.
 */
export async function createStripeClient(settings: StripeSettings): Promise<Stripe> {
  const { default: StripeSdk } = await import("stripe");
  const base = settings.apiBase ? new URL(settings.apiBase) : null;
  return new StripeSdk(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: "Syllabi" },
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === "https:" ? 443 : 80),
          protocol: base.protocol === "https:" ? "https" : "http",
        }
      : {}),
  });
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === "string" ? value : value.id;
}

function isoFromSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

const subscriptionStatuses: Partial<Record<Stripe.Subscription.Status, SubscriptionStatus>> = {
  active: "active",
  trialing: "active",
  past_due: "past_due",
  unpaid: "past_due",
  canceled: "canceled",
  incomplete_expired: "canceled",
};

export interface StripeProviderOptions {
  db: Database;
  clock: Clock;
  settings: StripeSettings;
  /** Read each time a link is made: the server's own address is only known once it listens. */
  publicUrl: () => string;
  vatRatePercent: number;
}

/** Stripe's errors say what they are in `type`, the SDK's documented way to tell them apart. */
function isStripeError<T extends Stripe.errors.StripeError>(error: unknown, type: T["type"]): error is T {
  return typeof error === "object" && error !== null && (error as { type?: unknown }).type === type;
}

/**
 * Stripe behind the payment interface: Checkout Sessions for one-off top-ups, monthly top-ups and saving a
 * card; off-session PaymentIntents on the saved card; refunds; webhooks checked with the SDK's
 * `constructEvent` and translated into the service's events. Each Syllabi account is one Stripe customer.
 */
export class StripePaymentProvider implements PaymentProvider {
  readonly name = "stripe" as const;

  static async create(options: StripeProviderOptions): Promise<StripePaymentProvider> {
    return new StripePaymentProvider(options, await createStripeClient(options.settings));
  }

  private constructor(
    private readonly options: StripeProviderOptions,
    private readonly stripe: Stripe,
  ) {}

  private vatFor(amountPence: number): number {
    return Math.round((amountPence * this.options.vatRatePercent) / 100);
  }

  private returnUrls(outcome: string) {
    return {
      success_url: `${this.options.publicUrl()}/#/billing?checkout=${outcome}`,
      cancel_url: `${this.options.publicUrl()}/#/billing?checkout=cancelled`,
    };
  }

  /** The account's Stripe customer, made once (the idempotency key makes a concurrent second try the same). */
  private async customerFor(accountId: string): Promise<string> {
    const { db } = this.options;
    const [known] = await db.select().from(stripeCustomers).where(eq(stripeCustomers.accountId, accountId));
    if (known) return known.customerId;
    const customer = await this.stripe.customers.create(
      { metadata: { accountId } },
      { idempotencyKey: `syllabi-customer-${accountId}` },
    );
    await db.insert(stripeCustomers).values({ accountId, customerId: customer.id }).onConflictDoNothing();
    const [stored] = await db.select().from(stripeCustomers).where(eq(stripeCustomers.accountId, accountId));
    return stored?.customerId ?? customer.id;
  }

  private lineItems(amountPence: number, monthly: boolean): Stripe.Checkout.SessionCreateParams.LineItem[] {
    const recurring = monthly ? { recurring: { interval: "month" as const } } : {};
    const vatPence = this.vatFor(amountPence);
    const item = (name: string, unitAmount: number) => ({
      price_data: { currency: "gbp", unit_amount: unitAmount, product_data: { name }, ...recurring },
      quantity: 1,
    });
    return [
      item(monthly ? "Syllabi monthly top-up" : "Syllabi top-up", amountPence),
      ...(vatPence > 0 ? [item(`VAT at ${this.options.vatRatePercent}%`, vatPence)] : []),
    ];
  }

  /** Metadata on every object we create: the amounts let a webhook be checked against what was sold. */
  private metadataFor(request: CheckoutRequest): Record<string, string> {
    return {
      ...request.metadata,
      accountId: request.accountId,
      amountPence: String(request.amountPence),
      vatPence: String(this.vatFor(request.amountPence)),
    };
  }

  async createCheckout(request: CheckoutRequest): Promise<{ checkoutId: string; url: string }> {
    const metadata = this.metadataFor(request);
    const session = await this.stripe.checkout.sessions.create({
      mode: "payment",
      customer: await this.customerFor(request.accountId),
      client_reference_id: request.accountId,
      line_items: this.lineItems(request.amountPence, false),
      metadata,
      payment_intent_data: { metadata },
      ...this.returnUrls("paid"),
    });
    return { checkoutId: session.id, url: session.url ?? "" };
  }

  async createSubscription(request: CheckoutRequest): Promise<{ checkoutId: string; url: string }> {
    const metadata = this.metadataFor(request);
    const session = await this.stripe.checkout.sessions.create({
      mode: "subscription",
      customer: await this.customerFor(request.accountId),
      client_reference_id: request.accountId,
      line_items: this.lineItems(request.amountPence, true),
      metadata,
      subscription_data: { metadata },
      ...this.returnUrls("subscribed"),
    });
    return { checkoutId: session.id, url: session.url ?? "" };
  }

  async savePaymentMethod(request: { accountId: string }): Promise<{ checkoutId: string; url: string }> {
    const metadata = { purpose: "payment_method", accountId: request.accountId };
    const session = await this.stripe.checkout.sessions.create({
      mode: "setup",
      currency: "gbp",
      // Automatic top-up charges the saved method without the customer: a card.
      allowed_payment_method_types: ["card"],
      customer: await this.customerFor(request.accountId),
      client_reference_id: request.accountId,
      metadata,
      setup_intent_data: { metadata },
      ...this.returnUrls("card_saved"),
    });
    return { checkoutId: session.id, url: session.url ?? "" };
  }

  subscriptionPageUrl(): string | null {
    return null;
  }

  async cancelSubscription(subscriptionId: string): Promise<CancelOutcome> {
    try {
      await this.stripe.subscriptions.cancel(subscriptionId);
      return { ok: true };
    } catch (error) {
      return { ok: false, reason: (error as Error).message };
    }
  }

  /**
   * A PaymentIntent confirmed at once without the customer. Any card-level error (declined, insufficient
   * funds, expired, authentication required …) is final; the saved card being gone is `no_payment_method`;
   * anything else (network, rate limit, Stripe's side) may succeed on a retry with the same idempotency key.
   */
  async chargeOffSession(request: OffSessionRequest): Promise<OffSessionOutcome> {
    const vatPence = this.vatFor(request.amountPence);
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: request.amountPence + vatPence,
          currency: "gbp",
          customer: await this.customerFor(request.accountId),
          payment_method: request.paymentMethodId,
          off_session: true,
          confirm: true,
          description: "Syllabi automatic top-up",
          metadata: {
            ...request.metadata,
            amountPence: String(request.amountPence),
            vatPence: String(vatPence),
          },
        },
        { idempotencyKey: request.idempotencyKey },
      );
      if (intent.status === "succeeded" || intent.status === "processing")
        return { ok: true, paymentId: intent.id };
      const failure = intent.last_payment_error;
      return {
        ok: false,
        kind: "card_error",
        code: failure?.decline_code ?? failure?.code ?? intent.status,
        message: failure?.message ?? `The payment could not be completed (${intent.status}).`,
      };
    } catch (error) {
      if (isStripeError<Stripe.errors.StripeCardError>(error, "StripeCardError")) {
        const declineCode = error.decline_code;
        return {
          ok: false,
          kind: "card_error",
          code:
            declineCode && declineCode !== "generic_decline" ? declineCode : (error.code ?? "card_declined"),
          message: error.message,
        };
      }
      if (
        isStripeError<Stripe.errors.StripeInvalidRequestError>(error, "StripeInvalidRequestError") &&
        error.param === "payment_method"
      )
        return { ok: false, kind: "no_payment_method", message: error.message };
      return { ok: false, kind: "provider_unavailable", message: (error as Error).message };
    }
  }

  /**
   * Refunds part of a payment, VAT included in proportion. A monthly period's payment is known by its
   * invoice; its PaymentIntent is looked up through the invoice's payments.
   */
  async refund(request: { paymentId: string; amountPence: number }): Promise<RefundOutcome> {
    try {
      let paymentIntent: string | null = request.paymentId;
      if (request.paymentId.startsWith("in_")) {
        const payments = await this.stripe.invoicePayments.list({ invoice: request.paymentId, limit: 1 });
        paymentIntent = idOf(payments.data[0]?.payment.payment_intent);
      }
      if (!paymentIntent) return { ok: false, reason: "no payment for that invoice" };
      const refund = await this.stripe.refunds.create({
        payment_intent: paymentIntent,
        amount: request.amountPence + this.vatFor(request.amountPence),
      });
      return refund.status === "failed" || refund.status === "canceled"
        ? { ok: false, reason: refund.failure_reason ?? refund.status }
        : { ok: true, refundId: refund.id };
    } catch (error) {
      return { ok: false, reason: (error as Error).message };
    }
  }

  async verifyWebhook(
    rawBody: string,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<WebhookVerification> {
    const header = headers["stripe-signature"];
    if (typeof header !== "string") return { ok: false, reason: "missing Stripe-Signature header" };
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(
        rawBody,
        header,
        this.options.settings.webhookSecret,
        stripeSignatureToleranceSeconds,
        undefined,
        this.options.clock.now().getTime(),
      );
    } catch (error) {
      return { ok: false, reason: (error as Error).message };
    }
    return { ok: true, event: await this.translate(event), providerEventId: event.id };
  }

  /** Stripe's event as the service's, or null for one the service does not act on. */
  private async translate(event: Stripe.Event): Promise<PaymentEvent | null> {
    switch (event.type) {
      case "checkout.session.completed":
      case "checkout.session.async_payment_succeeded":
        return this.sessionSucceeded(event.id, event.type, event.created, event.data.object);
      case "checkout.session.async_payment_failed":
      case "checkout.session.expired": {
        const session = event.data.object;
        if (session.mode !== "payment") return null;
        const expired = event.type === "checkout.session.expired";
        return {
          id: event.id,
          type: "checkout.failed",
          data: {
            checkoutId: session.id,
            reason: expired ? "expired" : "async_payment_failed",
            message: expired ? "The checkout expired before it was paid." : "The payment did not go through.",
            metadata: session.metadata ?? {},
          },
        };
      }
      case "payment_intent.succeeded": {
        const intent = event.data.object;
        const metadata = intent.metadata ?? {};
        if (!metadata.topUpId) return null;
        return {
          id: event.id,
          type: "checkout.completed",
          data: {
            checkoutId: intent.id,
            paymentId: intent.id,
            amountPence: intent.amount_received - Number(metadata.vatPence ?? 0),
            status: "paid",
            metadata,
          },
        };
      }
      case "payment_intent.payment_failed": {
        // Only an off-session charge's failure is final: on Checkout the customer can try another card.
        const intent = event.data.object;
        const metadata = intent.metadata ?? {};
        if (!metadata.topUpId || metadata.offSession !== "true") return null;
        const failure = intent.last_payment_error;
        const declineCode = failure?.decline_code;
        return {
          id: event.id,
          type: "checkout.failed",
          data: {
            checkoutId: intent.id,
            reason:
              declineCode && declineCode !== "generic_decline"
                ? declineCode
                : (failure?.code ?? "card_declined"),
            message: failure?.message ?? "The card was declined.",
            metadata,
          },
        };
      }
      case "invoice.paid":
        return this.invoicePaid(event.id, event.data.object);
      case "customer.subscription.created":
      case "customer.subscription.updated":
      case "customer.subscription.deleted": {
        const subscription = event.data.object;
        const status = subscriptionStatuses[subscription.status];
        const metadata = subscription.metadata ?? {};
        if (!status || !metadata.accountId) return null;
        const periodEnd = subscription.items.data[0]?.current_period_end;
        return {
          id: event.id,
          type: "subscription.updated",
          data: {
            subscriptionId: subscription.id,
            accountId: metadata.accountId,
            amountPence: Number(metadata.amountPence ?? 0),
            status,
            currentPeriodEnd: periodEnd ? isoFromSeconds(periodEnd) : null,
            occurredAt: isoFromSeconds(event.created),
          },
        };
      }
      default:
        return null;
    }
  }

  private async sessionSucceeded(
    eventId: string,
    type: "checkout.session.completed" | "checkout.session.async_payment_succeeded",
    created: number,
    session: Stripe.Checkout.Session,
  ): Promise<PaymentEvent | null> {
    const metadata = session.metadata ?? {};
    if (session.mode === "setup") {
      const setupIntentId = idOf(session.setup_intent);
      const accountId = metadata.accountId ?? session.client_reference_id;
      if (!setupIntentId || !accountId) return null;
      const setupIntent = await this.stripe.setupIntents.retrieve(setupIntentId, {
        expand: ["payment_method"],
      });
      const method = setupIntent.payment_method;
      if (setupIntent.status !== "succeeded" || !method || typeof method === "string" || !method.card)
        return null;
      return {
        id: eventId,
        type: "payment_method.saved",
        data: { accountId, paymentMethodId: method.id, last4: method.card.last4, brand: method.card.brand },
      };
    }
    if (session.mode === "subscription") {
      const subscriptionId = idOf(session.subscription);
      if (!subscriptionId || !metadata.accountId || session.payment_status !== "paid") return null;
      return {
        id: eventId,
        type: "subscription.updated",
        data: {
          subscriptionId,
          accountId: metadata.accountId,
          amountPence: Number(metadata.amountPence ?? 0),
          status: "active",
          currentPeriodEnd: null,
          occurredAt: isoFromSeconds(created),
        },
      };
    }
    // `completed` with payment_status unpaid (a bank payment still clearing) credits nothing yet.
    const paid = type === "checkout.session.async_payment_succeeded" || session.payment_status === "paid";
    return {
      id: eventId,
      type: "checkout.completed",
      data: {
        checkoutId: session.id,
        paymentId: idOf(session.payment_intent),
        amountPence: (session.amount_total ?? 0) - Number(metadata.vatPence ?? 0),
        status: paid ? "paid" : "unpaid",
        metadata,
      },
    };
  }

  /** One paid month: the invoice names the subscription, its metadata and the period it pays for. */
  private invoicePaid(eventId: string, invoice: Stripe.Invoice): PaymentEvent | null {
    const details = invoice.parent?.subscription_details;
    const subscriptionId = idOf(details?.subscription);
    const metadata = details?.metadata ?? {};
    const amountPence = Number(metadata.amountPence ?? 0);
    const vatPence = Number(metadata.vatPence ?? 0);
    const period = invoice.lines.data.find((line) => line.period)?.period;
    if (!invoice.id || !subscriptionId || !metadata.accountId || !amountPence || !period) return null;
    // Credit exactly what was sold: an invoice for any other amount is left for a person to look at.
    if (invoice.amount_paid !== amountPence + vatPence) return null;
    return {
      id: eventId,
      type: "subscription.period_paid",
      data: {
        subscriptionId,
        accountId: metadata.accountId,
        amountPence,
        paymentId: invoice.id,
        periodStart: isoFromSeconds(period.start),
        periodEnd: isoFromSeconds(period.end),
      },
    };
  }
}
