import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AccountService } from "../accounts/account-service.ts";
import { ApiError } from "../http/errors.ts";
import { requireAccount } from "../platform/session.ts";
import { autoTopUpThresholdPence, type AutoTopUpService } from "./auto-top-up.ts";
import type { BillingService, RefundResult } from "./billing-service.ts";
import { topUpAmountsPence } from "./prices.ts";
import type { SubscriptionService } from "./subscriptions.ts";

const amountSchema = z.union(topUpAmountsPence.map((amount) => z.literal(amount)));

const refundRefusals: Record<Exclude<RefundResult, { ok: true }>["reason"], ApiError> = {
  not_found: new ApiError("not_found", { message: "There is no top-up with that id on this account." }),
  not_confirmed: new ApiError("invalid_request", { message: "That top-up has not been paid." }),
  window_closed: new ApiError("invalid_request", {
    message: "Top-ups can be refunded within 14 days of payment; this one is older.",
  }),
  nothing_to_refund: new ApiError("invalid_request", { message: "Nothing of that top-up is left unspent." }),
  provider_failed: new ApiError("service_unavailable"),
};

const autoTopUpBody = z.strictObject({
  enabled: z.boolean(),
  thresholdPence: z
    .number()
    .int()
    .min(autoTopUpThresholdPence.min, "must be at least 50 (£0.50)")
    .max(autoTopUpThresholdPence.max, "must be at most 5000 (£50.00)"),
  amountPence: amountSchema,
});

/**
 * A call to the payment provider that failed (unreachable, or refused our request): nothing was charged, and
 * the caller may try again, so it is a 503 rather than our fault.
 */
async function viaProvider<T>(request: FastifyRequest, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    request.log.warn({ err: (error as Error).message }, "payment provider call failed");
    throw new ApiError("service_unavailable");
  }
}

async function activeAccount(request: FastifyRequest, accounts: AccountService) {
  const account = await requireAccount(request, accounts);
  if (account.status !== "active") throw new ApiError("account_suspended");
  return account;
}

/** The portal's billing API: thin routes over the billing services. */
export function registerBillingPlatformRoutes(
  app: FastifyInstance,
  dependencies: {
    accounts: AccountService;
    billing: BillingService;
    subscriptions: SubscriptionService;
    autoTopUp: AutoTopUpService;
  },
): void {
  const { accounts, billing, subscriptions, autoTopUp } = dependencies;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["Platform"];

  routes.get(
    "/platform/api/billing",
    { schema: { summary: "Balance, top-ups and billing settings", tags } },
    async (request) => {
      const account = await requireAccount(request, accounts);
      return billing.summary(account.id);
    },
  );

  routes.post(
    "/platform/api/billing/checkout",
    {
      schema: {
        tags,
        summary: "Start a top-up checkout",
        body: z.strictObject({ amountPence: amountSchema }),
      },
    },
    async (request) => {
      const account = await activeAccount(request, accounts);
      return viaProvider(request, () => billing.startCheckout(account.id, request.body.amountPence));
    },
  );

  routes.post(
    "/platform/api/billing/subscription",
    {
      schema: {
        tags,
        summary: "Start a monthly top-up",
        description:
          "Opens the provider's checkout for the first month; each paid month then credits the amount once. " +
          "409 subscription_exists while a monthly top-up is active or past due.",
        body: z.strictObject({ amountPence: amountSchema }),
      },
    },
    async (request) => {
      const account = await activeAccount(request, accounts);
      const started = await viaProvider(request, () =>
        subscriptions.start(account.id, request.body.amountPence),
      );
      if (!started.ok) throw new ApiError("subscription_exists");
      return { checkoutId: started.checkoutId, url: started.url };
    },
  );

  routes.delete(
    "/platform/api/billing/subscription",
    {
      schema: {
        tags,
        summary: "Cancel the monthly top-up",
        description:
          "Cancels at the provider at once: no further month is charged; months already paid stay on the " +
          "balance. 404 subscription_not_found when there is nothing to cancel.",
      },
    },
    async (request) => {
      const account = await requireAccount(request, accounts);
      const canceled = await subscriptions.cancel(account.id);
      if (!canceled.ok)
        throw canceled.reason === "subscription_not_found"
          ? new ApiError("subscription_not_found")
          : new ApiError("service_unavailable");
      return { subscription: canceled.subscription };
    },
  );

  routes.post(
    "/platform/api/billing/payment-method",
    {
      schema: {
        tags,
        summary: "Save a card for automatic top-up",
        description:
          "Opens the provider's page for saving a card; it replaces any saved card once confirmed.",
      },
    },
    async (request) => {
      const account = await activeAccount(request, accounts);
      return viaProvider(request, () => billing.startPaymentMethodSetup(account.id));
    },
  );

  routes.put(
    "/platform/api/billing/auto-topup",
    {
      schema: {
        tags,
        summary: "Set up automatic top-up",
        description:
          "When a charge leaves the balance below thresholdPence, the saved card is charged amountPence once " +
          "for that crossing. Switching on needs a saved card (409 payment_method_required). A card-level " +
          "refusal switches it off; disabledReason, disabledMessage and disabledAt then say why, until it is " +
          "switched on again.",
        body: autoTopUpBody,
      },
    },
    async (request) => {
      const account = await activeAccount(request, accounts);
      const configured = await autoTopUp.configure(account.id, request.body);
      if (!configured.ok) throw new ApiError("payment_method_required");
      return { autoTopUp: configured.settings };
    },
  );

  routes.post(
    "/platform/api/billing/topups/:topUpId/refund",
    {
      schema: {
        tags,
        summary: "Refund the unspent part of a recent top-up",
        params: z.object({ topUpId: z.string().max(100) }),
      },
    },
    async (request) => {
      const account = await requireAccount(request, accounts);
      const result = await billing.refundTopUp(account.id, request.params.topUpId);
      if (!result.ok) throw refundRefusals[result.reason];
      return { refundedPence: result.refundedPence };
    },
  );

  routes.post(
    "/platform/api/account/close",
    { schema: { tags, summary: "Close the account" } },
    async (request) => {
      const account = await requireAccount(request, accounts);
      return { closed: true, ...(await billing.closeAccount(account.id)) };
    },
  );
}
