import type {} from "@fastify/cookie";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AccountService } from "../accounts/account-service.ts";
import type { AccountRow } from "../accounts/account-store.ts";
import { ApiError } from "../http/errors.ts";
import type { RateLimits } from "../limits/rate-limits.ts";
import { clearSessionCookie, requireAccount, sessionCookie, setSessionCookie } from "./session.ts";

const registrationBody = z.strictObject({
  email: z.email().max(254),
  password: z.string().min(12, "must be at least 12 characters").max(200),
  name: z.string().trim().min(1).max(120),
  organisation: z.string().trim().max(160).optional(),
  useCase: z.string().trim().min(10, "must be at least 10 characters").max(1000),
  acceptTerms: z.literal(true, { error: "the developer terms must be accepted" }),
});

const loginBody = z.strictObject({ email: z.string().max(254), password: z.string().max(200) });

export function publicAccount(account: AccountRow) {
  return {
    id: account.id,
    email: account.email,
    name: account.name,
    organisation: account.organisation,
    status: account.status,
    dataUnlocked: account.dataUnlockedAt !== null,
    createdAt: account.createdAt.toISOString(),
  };
}

export function registerAccountRoutes(
  app: FastifyInstance,
  dependencies: { accounts: AccountService; rateLimits: RateLimits; secureCookies: boolean },
): void {
  const { accounts, rateLimits, secureCookies } = dependencies;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["Platform"];

  routes.post(
    "/platform/api/register",
    {
      config: {
        openapi: { successStatus: 201, withoutSession: true, errors: ["email_taken", "rate_limited"] },
      },
      schema: { summary: "Register a developer account and sign in", body: registrationBody, tags },
    },
    async (request, reply) => {
      const limited = await rateLimits.consumeLogin(`register:${request.ip}`);
      if (!limited.allowed)
        throw new ApiError("rate_limited", {
          headers: { "Retry-After": String(limited.refusedBy.resetSeconds) },
        });
      const account = await accounts.register(request.body);
      if (account === "email_taken") throw new ApiError("email_taken", { param: "email" });
      const session = await accounts.startSession(account.id);
      setSessionCookie(reply, session.token, session.expiresAt, secureCookies);
      return reply.code(201).send({ account: publicAccount(account) });
    },
  );

  const loginOptions = {
    config: { openapi: { withoutSession: true, errors: ["invalid_credentials", "rate_limited"] as const } },
    schema: { summary: "Sign in", body: loginBody, tags },
  };
  routes.post("/platform/api/login", loginOptions, async (request, reply) => {
    const limited = await rateLimits.consumeLogin(`login:${request.ip}:${request.body.email.toLowerCase()}`);
    if (!limited.allowed) {
      const seconds = limited.refusedBy.resetSeconds;
      throw new ApiError("rate_limited", {
        headers: { "Retry-After": String(seconds) },
        extra: { retryAfterSeconds: seconds },
      });
    }
    const account = await accounts.verifyCredentials(request.body.email, request.body.password);
    if (!account) throw new ApiError("invalid_credentials");
    const session = await accounts.startSession(account.id);
    setSessionCookie(reply, session.token, session.expiresAt, secureCookies);
    return { account: publicAccount(account) };
  });

  routes.post("/platform/api/logout", { schema: { summary: "Sign out", tags } }, async (request, reply) => {
    await accounts.endSession(request.cookies[sessionCookie]);
    clearSessionCookie(reply, secureCookies);
    return { signedOut: true };
  });

  routes.get("/platform/api/me", { schema: { summary: "The signed-in account", tags } }, async (request) => {
    const account = await requireAccount(request, accounts);
    return { account: publicAccount(account) };
  });
}
