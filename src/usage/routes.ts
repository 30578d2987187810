import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AccountService } from "../accounts/account-service.ts";
import { requireAccount } from "../platform/session.ts";
import type { UsageService } from "./usage.ts";

export function registerUsageRoutes(
  app: FastifyInstance,
  dependencies: { accounts: AccountService; usage: UsageService },
): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/platform/api/usage",
    {
      schema: {
        tags: ["Platform"],
        summary: "Daily calls and spend by kind, from the usage rollup",
        querystring: z.object({ days: z.coerce.number().int().min(1).max(90).default(30) }),
      },
    },
    async (request) => {
      const account = await requireAccount(request, dependencies.accounts);
      return dependencies.usage.daily(account.id, request.query.days);
    },
  );
}
