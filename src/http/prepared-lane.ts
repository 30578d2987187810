import type { FastifyBaseLogger, RouteOptions } from "fastify";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { KeyService } from "../keys/key-service.ts";
import type { KeyPrincipal } from "../keys/key-store.ts";
import { rateLimitHeaders, type RateDecision, type RateLimits } from "../limits/rate-limits.ts";
import { logsAt } from "../observability/logger.ts";
import type { Metrics } from "../observability/metrics.ts";
import { newId } from "../shared/ids.ts";
import { usageKindForRoute, type UsageKind } from "../usage/usage.ts";
import { apiHeaderPairs, slowRequestMs } from "./api-conventions.ts";
import type { ApiRouteGuard } from "./api-guard.ts";
import { jsonContentType, matchesEtag, type PreparedBody } from "./prepared-body.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * The route's answer is a body prepared in advance: given the route's one path parameter as it stands in the
     * URL ("" for a route without one), the body, or null when the parameter names nothing (the router then answers).
     */
    prepared?: (param: string) => PreparedBody | null;
  }
}

export interface PreparedLaneDependencies {
  keys: KeyService;
  rateLimits: RateLimits;
  metrics: Metrics;
  logger: FastifyBaseLogger;
  isWithdrawn?: (endpoint: string) => boolean;
  recordUsage?: (accountId: string, kind: UsageKind) => void;
}

/** Every answer's first headers, copied per request with the request id put in its place. */
const headersTemplate: readonly string[] = ["request-id", "", ...apiHeaderPairs];

interface LaneRoute {
  /** The route's pattern, as its log line and metrics name it. */
  pattern: string;
  /** The path before the parameter (the whole path for a route without one) and after it. */
  prefix: string;
  suffix: string;
  hasParam: boolean;
  guard: ApiRouteGuard;
  usageKind: UsageKind | null;
  prepared: (param: string) => PreparedBody | null;
}

/**
 * The catalogue's GETs answer bytes prepared at start-up, and on the busiest calls Fastify's own per-request
 * machinery (request and reply objects, hook runners, the response listeners) cost as much as everything the
 * service itself does. The lane answers those requests from Node's request event, before the router, when the
 * answer is a success: a key already known (the key cache), active, with the scope, under its limits, on an
 * unlocked account, naming something that exists, with no query string. Such a request gets exactly what the
 * router would have sent — the same checks in the contract's order, the same headers, usage, metrics and log line
 * (an HTTP test compares the two answer by answer). Anything else, every refusal and every error included, is left
 * to the router, so no refusal is written twice.
 */
export class PreparedLane {
  private readonly routes: LaneRoute[] = [];
  private closing = false;

  constructor(private readonly dependencies: PreparedLaneDependencies) {}

  /** Fastify's onRoute hook: GET routes whose config says `prepared` join the lane. */
  readonly collect = (route: RouteOptions): void => {
    const prepared = route.config?.prepared;
    const guard = route.config?.guard;
    if (!prepared || route.method !== "GET") return;
    if (!guard) throw new Error(`${route.url}: a prepared route needs a guard`);
    const params = route.url.split(":").length - 1;
    if (params > 1) throw new Error(`${route.url}: a prepared route takes at most one path parameter`);
    const colon = route.url.indexOf(":");
    const afterParam = colon < 0 ? -1 : route.url.indexOf("/", colon);
    this.routes.push({
      pattern: route.url,
      prefix: colon < 0 ? route.url : route.url.slice(0, colon),
      suffix: colon < 0 || afterParam < 0 ? "" : route.url.slice(afterParam),
      hasParam: colon >= 0,
      guard,
      usageKind: usageKindForRoute(route.url),
      prepared,
    });
  };

  /** From the server's close on, every request goes to the router, which answers 503 while closing. */
  close(): void {
    this.closing = true;
  }

  /**
   * Answers the request if it is one of the lane's successes; false leaves it to the router untouched (the only
   * state the lane can have changed by then is a rate-limit count, and only for a refusal, which the router's own
   * count repeats on a window already spent).
   */
  answer(request: IncomingMessage, response: ServerResponse, router: () => void): boolean {
    if (request.method !== "GET" || this.closing || this.routes.length === 0) return false;
    const startedAt = performance.now();
    const url = request.url ?? "";
    let route: LaneRoute | undefined;
    let body: PreparedBody | null = null;
    for (let index = 0; index < this.routes.length && body === null; index += 1) {
      route = this.routes[index]!;
      body = this.match(route, url);
    }
    if (body === null || route === undefined) return false;

    const { keys, rateLimits, isWithdrawn } = this.dependencies;
    const authentication = keys.authenticateNow(request.headers.authorization);
    if (authentication === null || !authentication.ok) return false;
    const principal = authentication.principal;
    const guard = route.guard;
    if (principal.accountStatus !== "active" || !principal.scopes.includes(guard.scope)) return false;
    // Checked before the limit although the contract orders them after it: a request refused by either goes to the
    // router, which counts it and answers in the contract's order; here they only decide whether to count at all.
    if (guard.endpoint && isWithdrawn?.(guard.endpoint)) return false;
    if (guard.requiresDataUnlock && !principal.dataUnlocked) return false;

    const decision = rateLimits.consumeForKeyNow(principal.keyId, guard.ai);
    if (decision !== null) {
      if (!decision.allowed) return false;
      this.send(request, response, route, body, principal, decision, startedAt);
      return true;
    }
    // Shared (Redis) limits: the count is asked for; a refusal then goes to the router after all.
    const chosen = route;
    const prepared = body;
    rateLimits
      .consumeForKey(principal.keyId, guard.ai)
      .then((shared) => {
        if (shared.allowed) this.send(request, response, chosen, prepared, principal, shared, startedAt);
        else router();
      })
      .catch((error: unknown) => this.recover(error, response, router));
    return true;
  }

  /**
   * Node's request listener: the lane's answer, or the router's. A fault in the lane (a bug) must not take the
   * process down with an uncaught exception: the router answers instead, or the connection is closed if the
   * lane had already begun its answer.
   */
  handle(request: IncomingMessage, response: ServerResponse, router: () => void): void {
    let answered = false;
    try {
      answered = this.answer(request, response, router);
    } catch (error) {
      this.recover(error, response, router);
      return;
    }
    if (!answered) router();
  }

  private recover(error: unknown, response: ServerResponse, router: () => void): void {
    this.dependencies.logger.error({ err: error }, "prepared lane failed; the router answers instead");
    if (response.headersSent) response.destroy();
    else router();
  }

  private match(route: LaneRoute, url: string): PreparedBody | null {
    if (!route.hasParam) return url === route.prefix ? route.prepared("") : null;
    const { prefix, suffix } = route;
    if (url.length <= prefix.length + suffix.length || !url.startsWith(prefix) || !url.endsWith(suffix))
      return null;
    const param = url.slice(prefix.length, url.length - suffix.length);
    // Anything the router would decode or split first is left to it.
    if (param.includes("/") || param.includes("%") || param.includes("?")) return null;
    return route.prepared(param);
  }

  private send(
    request: IncomingMessage,
    response: ServerResponse,
    route: LaneRoute,
    body: PreparedBody,
    principal: KeyPrincipal,
    decision: RateDecision,
    startedAt: number,
  ): void {
    const requestId = newId("req");
    const headers = headersTemplate.slice();
    headers[1] = requestId;
    const limits = rateLimitHeaders(decision.states);
    for (const name in limits) headers.push(name, limits[name]!);
    headers.push("etag", body.etag);
    const notModified = matchesEtag(request.headers["if-none-match"], body.etag);
    const statusCode = notModified ? 304 : 200;
    // Corked, the head and the body leave in one writev: end(body) alone writes the head, then the body, as two
    // system calls and two TCP segments (Fastify's write-then-end corks the same way, until the next tick).
    const socket = response.socket;
    socket?.cork();
    if (notModified) {
      response.writeHead(statusCode, headers);
      response.end();
    } else {
      headers.push("content-type", jsonContentType, "content-length", String(body.bytes.length));
      response.writeHead(statusCode, headers);
      response.end(body.bytes);
    }
    socket?.uncork();
    const { metrics, logger, recordUsage } = this.dependencies;
    if (route.usageKind !== null) recordUsage?.(principal.accountId, route.usageKind);
    const responseTimeMs = performance.now() - startedAt;
    metrics.http.observe("GET", route.pattern, statusCode, responseTimeMs / 1000);
    metrics.preparedLane.answered += 1;
    // Slow successes at info, quick ones at debug, as the router's requests are logged (registerRequestRecording).
    const level = responseTimeMs >= slowRequestMs ? "info" : "debug";
    if (logsAt(logger, level)) {
      const line = { method: "GET", url: request.url, statusCode, responseTimeMs };
      logger.child({ reqId: requestId })[level](line, "request completed");
    }
  }
}
