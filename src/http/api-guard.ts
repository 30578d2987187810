import type { FastifyInstance, FastifyRequest } from "fastify";
import type { KeyService } from "../keys/key-service.ts";
import type { KeyPrincipal } from "../keys/key-store.ts";
import type { Scope } from "../keys/scopes.ts";
import { rateLimitHeaders, type RateLimits } from "../limits/rate-limits.ts";
import { ApiError } from "./errors.ts";

/** Declared on each /api/v1 route: what the guard enforces before the handler runs. */
export interface ApiRouteGuard {
  scope: Scope;
  /** Counts against the `ai` limit as well as `general`. */
  ai: boolean;
  /** Refused with 402 topup_required until the account's first confirmed top-up. */
  requiresDataUnlock: boolean;
  /** The endpoint name an operator can withdraw, when it can be withdrawn. */
  endpoint?: string;
}

declare module "fastify" {
  interface FastifyContextConfig {
    guard?: ApiRouteGuard;
  }
  interface FastifyRequest {
    principal: KeyPrincipal | null;
  }
}

export interface GuardDependencies {
  keys: KeyService;
  rateLimits: RateLimits;
  /** Endpoints the operator has withdrawn (legal or safety reasons). */
  isWithdrawn?: (endpoint: string) => boolean;
}

function retryAfter(seconds: number): ApiError {
  return new ApiError("rate_limited", {
    headers: { "Retry-After": String(seconds) },
    extra: { retryAfterSeconds: seconds },
  });
}

/**
 * The contract's order of checks, before the body is even parsed: authentication (401) → suspended (403) →
 * scope (403) → rate limit (429) → withdrawn (410) → data gate (402). Validation, existence and balance follow
 * in the route.
 */
export function registerApiGuard(app: FastifyInstance, dependencies: GuardDependencies): void {
  app.decorateRequest("principal", null);

  app.addHook("onRequest", async (request: FastifyRequest, reply) => {
    const guard = request.routeOptions.config.guard;
    if (!guard) return;

    const authentication = await dependencies.keys.authenticate(request.headers.authorization);
    if (!authentication.ok) {
      const decision = await dependencies.rateLimits.consumeForIp(request.ip);
      if (!decision.allowed) throw retryAfter(decision.refusedBy.resetSeconds);
      throw new ApiError(authentication.reason);
    }
    const principal = authentication.principal;
    if (principal.accountStatus !== "active") throw new ApiError("account_suspended");
    if (!principal.scopes.includes(guard.scope)) {
      throw new ApiError("insufficient_scope", {
        message: `This endpoint needs the '${guard.scope}' scope, which this API key does not have.`,
      });
    }

    const decision = await dependencies.rateLimits.consumeForKey(principal.keyId, guard.ai);
    reply.headers(rateLimitHeaders(decision.states));
    if (!decision.allowed) throw retryAfter(decision.refusedBy.resetSeconds);

    if (guard.endpoint && dependencies.isWithdrawn?.(guard.endpoint))
      throw new ApiError("endpoint_withdrawn");
    if (guard.requiresDataUnlock && !principal.dataUnlocked) throw new ApiError("topup_required");
    request.principal = principal;
  });
}

export function principalOf(request: FastifyRequest): KeyPrincipal {
  if (!request.principal) throw new ApiError("internal_error");
  return request.principal;
}
