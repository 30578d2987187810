import type { FastifyInstance } from "fastify";
import type { BillingService } from "../billing/billing-service.ts";
import type { PaymentProvider } from "./provider.ts";

/**
 * POST /platform/webhooks/{provider}: outside the CSRF scope (the provider has no cookie) and with the raw body
 * kept as a string, because the signature covers the exact bytes.
 */
export async function registerPaymentWebhook(
  app: FastifyInstance,
  dependencies: { provider: PaymentProvider; billing: BillingService },
): Promise<void> {
  await app.register(async (scope) => {
    scope.removeContentTypeParser(["application/json"]);
    scope.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) =>
      done(null, body),
    );
    scope.post(`/platform/webhooks/${dependencies.provider.name}`, async (request, reply) => {
      const rawBody = typeof request.body === "string" ? request.body : "";
      const verified = await dependencies.provider.verifyWebhook(rawBody, request.headers);
      if (!verified.ok)
        return reply
          .code(400)
          .send({ error: "invalid_signature", message: `Webhook refused: ${verified.reason}.` });
      // A genuine event the service has no use for is acknowledged, so the provider stops sending it.
      if (!verified.event) return { received: true, outcome: "ignored" };
      const outcome = await dependencies.billing.handleEvent(verified.event);
      return { received: true, outcome };
    });
  });
}
