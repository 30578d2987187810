import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AccountService } from "../accounts/account-service.ts";
import { ApiError } from "../http/errors.ts";
import { requireAccount } from "../platform/session.ts";
import type { BillingService, RefundResult } from "./billing-service.ts";
import { topUpAmountsPence } from "./prices.ts";

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

/** The portal's billing API: thin routes over BillingService. */
export function registerBillingPlatformRoutes(
  app: FastifyInstance,
  dependencies: { accounts: AccountService; billing: BillingService },
): void {
  const { accounts, billing } = dependencies;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["Platform"];

  routes.get("/platform/api/billing", { schema: { tags } }, async (request) => {
    const account = await requireAccount(request, accounts);
    return billing.summary(account.id);
  });

  routes.post(
    "/platform/api/billing/checkout",
    { schema: { tags, body: z.strictObject({ amountPence: amountSchema }) } },
    async (request) => {
      const account = await requireAccount(request, accounts);
      if (account.status !== "active") throw new ApiError("account_suspended");
      return billing.startCheckout(account.id, request.body.amountPence);
    },
  );

  routes.post(
    "/platform/api/billing/topups/:topUpId/refund",
    { schema: { tags, params: z.object({ topUpId: z.string().max(100) }) } },
    async (request) => {
      const account = await requireAccount(request, accounts);
      const result = await billing.refundTopUp(account.id, request.params.topUpId);
      if (!result.ok) throw refundRefusals[result.reason];
      return { refundedPence: result.refundedPence };
    },
  );

  routes.post("/platform/api/account/close", { schema: { tags } }, async (request) => {
    const account = await requireAccount(request, accounts);
    return { closed: true, ...(await billing.closeAccount(account.id)) };
  });
}
