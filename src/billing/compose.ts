import { createHmac } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { AccountService } from "../accounts/account-service.ts";
import type { KeyService } from "../keys/key-service.ts";
import { OutboxMailer, SmtpMailer, type Mailer } from "../mail/mailer.ts";
import { registerMessageRoutes } from "../mail/routes.ts";
import { EmbeddedPaymentProvider } from "../payments/embedded/embedded-provider.ts";
import { registerEmbeddedPayRoutes } from "../payments/embedded/routes.ts";
import type { PaymentProvider } from "../payments/provider.ts";
import { StripePaymentProvider, type StripeSettings } from "../payments/stripe/stripe-provider.ts";
import { registerPaymentWebhook } from "../payments/webhook-route.ts";
import type { Clock } from "../shared/ids.ts";
import type { Storage } from "../storage/database.ts";
import { registerUsageRoutes } from "../usage/routes.ts";
import { registerUsageRecording, rollupCycleMs, UsageService } from "../usage/usage.ts";
import { AutoTopUpService, chargingWithAutoTopUp } from "./auto-top-up.ts";
import { BillingService } from "./billing-service.ts";
import type { Charging } from "./charging.ts";
import { IdempotencyStore } from "./idempotency.ts";
import { Ledger } from "./ledger.ts";
import { PriceBook } from "./price-book.ts";
import { registerBillingPlatformRoutes } from "./platform-routes.ts";
import { SubscriptionService } from "./subscriptions.ts";

/** A reservation still held this long means the instance died mid-call: our fault, so it is returned. */
export const staleReservationMs = 10 * 60 * 1000;

/**
 * The sweeper's first pass comes this soon after start, then every minute: after a restart, reservations that are
 * already stale (their instance died over ten minutes ago) are returned at once instead of a minute later, and
 * start-up itself, /readyz included, does not wait for the query.
 */
export const firstSweepDelayMs = 1_000;

export interface BillingRuntime {
  ledger: Ledger;
  priceBook: PriceBook;
  idempotency: IdempotencyStore;
  billing: BillingService;
  subscriptions: SubscriptionService;
  autoTopUp: AutoTopUpService;
  /** What the paid routes charge through: the ledger, watched for automatic top-up. */
  charging: Charging;
  provider: PaymentProvider;
  /** The embedded processor, when it is the provider (development, tests, `dev bootstrap`). */
  embedded: EmbeddedPaymentProvider | null;
  mailer: Mailer;
  usage: UsageService;
  /** Records usage on every authenticated /api/v1 call; call before the API routes are registered. */
  registerApiHooks(app: FastifyInstance): void;
  /** Platform API routes (inside the CSRF scope). */
  registerPlatformRoutes(platform: FastifyInstance): void;
  /** The provider's pages and the webhook: outside the CSRF scope. */
  registerRootRoutes(app: FastifyInstance): Promise<void>;
  /** Starts the sweeper, webhook retries, renewals and automatic top-up retries; returns the stopper. */
  startBackgroundWork(): () => Promise<void>;
}

/** The embedded provider's webhook secret, derived from the server pepper so every instance agrees. */
export function embeddedWebhookSecret(pepper: string): string {
  return createHmac("sha256", pepper).update("embedded-payment-webhooks").digest("hex");
}

/** Stripe when it is configured, else the embedded processor (which posts its webhooks through the app). */
async function createPaymentProvider(options: {
  storage: Storage;
  clock: Clock;
  pepper: string;
  publicUrl: () => string;
  vatRatePercent: number;
  stripe: StripeSettings | null;
  app: () => FastifyInstance | null;
}): Promise<{ provider: PaymentProvider; embedded: EmbeddedPaymentProvider | null }> {
  const shared = {
    db: options.storage.db,
    clock: options.clock,
    publicUrl: options.publicUrl,
    vatRatePercent: options.vatRatePercent,
  };
  if (options.stripe)
    return {
      provider: await StripePaymentProvider.create({ ...shared, settings: options.stripe }),
      embedded: null,
    };
  const embedded = new EmbeddedPaymentProvider({
    ...shared,
    webhookSecret: embeddedWebhookSecret(options.pepper),
    // The embedded provider lives in this process, so it posts through the app itself, signed like any other.
    transport: async ({ headers, body }) => {
      const app = options.app();
      if (!app) return 0;
      const response = await app.inject({
        method: "POST",
        url: "/platform/webhooks/embedded",
        headers,
        payload: body,
      });
      return response.statusCode;
    },
  });
  return { provider: embedded, embedded };
}

export async function createBillingRuntime(options: {
  storage: Storage;
  /** Shared with the paid routes' charging, when the root already built them. */
  ledger?: Ledger;
  priceBook?: PriceBook;
  clock: Clock;
  keys: KeyService;
  accounts: AccountService;
  pepper: string;
  /** The address people use (PUBLIC_URL, or this server's own once it listens); read when a link is made. */
  publicUrl: () => string;
  vatRatePercent: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Where the embedded provider posts its webhooks: the app, once built. */
  app: () => FastifyInstance | null;
  /** Stripe instead of the embedded provider, when configured. */
  stripe: StripeSettings | null;
  /** Background failures (an automatic top-up that could not be attempted) go here. */
  onError: (error: unknown) => void;
}): Promise<BillingRuntime> {
  const { storage, clock } = options;
  const priceBook = options.priceBook ?? new PriceBook(storage.db);
  await priceBook.seedLaunchPrices();
  const ledger = options.ledger ?? new Ledger(storage.db, clock);
  const mailer: Mailer = options.smtpUrl
    ? new SmtpMailer(options.smtpUrl, options.mailFrom)
    : new OutboxMailer(storage.db, clock);
  const { provider, embedded } = await createPaymentProvider(options);
  const subscriptions = new SubscriptionService({ db: storage.db, clock, ledger, provider, mailer });
  const autoTopUp = new AutoTopUpService({
    db: storage.db,
    clock,
    ledger,
    provider,
    mailer,
    onError: options.onError,
  });
  const billing = new BillingService({
    db: storage.db,
    clock,
    ledger,
    provider,
    keys: options.keys,
    mailer,
    subscriptions,
    autoTopUp,
  });

  const usage = new UsageService(storage.db, clock);

  return {
    ledger,
    priceBook,
    idempotency: new IdempotencyStore(storage.db, clock),
    billing,
    subscriptions,
    autoTopUp,
    charging: chargingWithAutoTopUp(ledger, autoTopUp),
    provider,
    embedded,
    mailer,
    usage,
    registerApiHooks: (app) => registerUsageRecording(app, usage),
    registerPlatformRoutes: (platform) => {
      registerUsageRoutes(platform, { accounts: options.accounts, usage });
      registerBillingPlatformRoutes(platform, {
        accounts: options.accounts,
        billing,
        subscriptions,
        autoTopUp,
      });
      registerMessageRoutes(platform, { accounts: options.accounts, db: storage.db });
    },
    registerRootRoutes: async (app) => {
      if (embedded) await registerEmbeddedPayRoutes(app, { provider: embedded });
      await registerPaymentWebhook(app, { provider, billing });
    },
    startBackgroundWork: () => {
      const sweep = () => void ledger.sweepStaleReservations(staleReservationMs).catch(() => {});
      const timers = [
        setTimeout(sweep, firstSweepDelayMs),
        setInterval(sweep, 60_000),
        setInterval(() => void autoTopUp.retryStale().catch(options.onError), 60_000),
        setInterval(() => void usage.runCycle().catch(() => {}), rollupCycleMs),
        // The embedded processor's own work: its webhook retries and its monthly renewals.
        ...(embedded
          ? [
              setInterval(() => void embedded.deliverDue().catch(() => {}), 5_000),
              setInterval(() => void embedded.renewDue().catch(options.onError), 60_000),
            ]
          : []),
      ];
      for (const timer of timers) timer.unref();
      // Stopping waits for automatic top-ups already under way, so none is cut off mid-charge.
      return async () => {
        timers.forEach((timer) => clearInterval(timer));
        await autoTopUp.drain();
      };
    },
  };
}
