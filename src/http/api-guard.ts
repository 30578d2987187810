import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from "fastify";
import type { Authentication, KeyService } from "../keys/key-service.ts";
import type { KeyPrincipal } from "../keys/key-store.ts";
import type { Scope } from "../keys/scopes.ts";
import { rateLimitHeaders, type RateDecision, type RateLimits } from "../limits/rate-limits.ts";
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

/** What a check decided: the refusal, or null to go on. */
type Outcome = ApiError | null;

/**
 * The contract's order of checks, before the body is even parsed: authentication (401) → suspended (403) →
 * scope (403) → rate limit (429) → withdrawn (410) → data gate (402). Validation, existence and balance follow
 * in the route. A key seen within the key cache's TTL, on in-memory rate limits, is decided without a promise;
 * only a key lookup or a shared (Redis) limit waits.
 */
export function registerApiGuard(app: FastifyInstance, dependencies: GuardDependencies): void {
  const { keys, rateLimits } = dependencies;
  app.decorateRequest("principal", null);

  const afterRateLimit = (
    request: FastifyRequest,
    reply: FastifyReply,
    guard: ApiRouteGuard,
    principal: KeyPrincipal,
    decision: RateDecision,
  ): Outcome => {
    // A loop over the fields rather than reply.headers, which lists their names into an array first.
    const headers = rateLimitHeaders(decision.states);
    for (const name in headers) reply.header(name, headers[name]);
    if (!decision.allowed) return retryAfter(decision.refusedBy.resetSeconds);
    if (guard.endpoint && dependencies.isWithdrawn?.(guard.endpoint))
      return new ApiError("endpoint_withdrawn");
    if (guard.requiresDataUnlock && !principal.dataUnlocked) return new ApiError("topup_required");
    request.principal = principal;
    return null;
  };

  const admit = (
    request: FastifyRequest,
    reply: FastifyReply,
    guard: ApiRouteGuard,
    authentication: Authentication,
  ): Outcome | Promise<Outcome> => {
    if (!authentication.ok) {
      return rateLimits
        .consumeForIp(request.ip)
        .then((decision) =>
          decision.allowed
            ? new ApiError(authentication.reason)
            : retryAfter(decision.refusedBy.resetSeconds),
        );
    }
    const principal = authentication.principal;
    if (principal.accountStatus !== "active") return new ApiError("account_suspended");
    if (!principal.scopes.includes(guard.scope)) {
      return new ApiError("insufficient_scope", {
        message: `This endpoint needs the '${guard.scope}' scope, which this API key does not have.`,
      });
    }
    const decision = rateLimits.consumeForKeyNow(principal.keyId, guard.ai);
    if (decision === null) {
      return rateLimits
        .consumeForKey(principal.keyId, guard.ai)
        .then((shared) => afterRateLimit(request, reply, guard, principal, shared));
    }
    return afterRateLimit(request, reply, guard, principal, decision);
  };

  const guardHook =
    (guard: ApiRouteGuard): onRequestHookHandler =>
    (request, reply, done) => {
      const authorization = request.headers.authorization;
      const known = keys.authenticateNow(authorization);
      const outcome = known
        ? admit(request, reply, guard, known)
        : keys
            .authenticate(authorization)
            .then((authentication) => admit(request, reply, guard, authentication));
      if (outcome instanceof Promise) outcome.then((refusal) => done(refusal ?? undefined), done);
      else done(outcome ?? undefined);
    };

  // Attached to the guarded routes only, with their guard at hand: no hook on other routes, and no look-up of the
  // route's options (which Fastify builds afresh on each read) per request.
  app.addHook("onRoute", (route) => {
    const guard = route.config?.guard;
    if (!guard) return;
    const existing = route.onRequest === undefined ? [] : [route.onRequest].flat();
    route.onRequest = [...existing, guardHook(guard)];
  });
}

export function principalOf(request: FastifyRequest): KeyPrincipal {
  if (!request.principal) throw new ApiError("internal_error");
  return request.principal;
}
