import fastifyCookie from "@fastify/cookie";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import http from "node:http";
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type onResponseHookHandler,
} from "fastify";

import type { AccountService } from "./accounts/account-service.ts";
import {
  answerClientError,
  answerUnroutable,
  registerApiConventions,
  registerMethodNotAllowed,
  apiPrefix,
  isApiPath,
  maxBodyBytes,
  slowRequestMs,
} from "./http/api-conventions.ts";
import { PreparedLane } from "./http/prepared-lane.ts";
import { registerApiGuard } from "./http/api-guard.ts";
import { newId } from "./shared/ids.ts";
import { zodCompilersFactory } from "./http/validation.ts";
import type { KeyService } from "./keys/key-service.ts";
import type { RateLimits } from "./limits/rate-limits.ts";
import { lazyRequestLogger } from "./observability/logger.ts";
import type { Metrics } from "./observability/metrics.ts";
import { registerAccountRoutes } from "./platform/account-routes.ts";
import { registerCsrf } from "./platform/csrf.ts";
import { registerKeyRoutes } from "./platform/key-routes.ts";
import type { Storage } from "./storage/database.ts";
import type { UsageKind } from "./usage/usage.ts";
import { documentRoute, openApiInfo } from "./http/openapi.ts";

/** Everything the HTTP layer needs, built by the composition root (or a test harness). */
export interface AppDependencies {
  logger: FastifyBaseLogger;
  storage: Storage;
  keys: KeyService;
  accounts: AccountService;
  rateLimits: RateLimits;
  metrics: Metrics;
  metricsToken: string | undefined;
  /** The address people use: PUBLIC_URL, or this server's own once it listens. */
  publicUrl: () => string;
  trustProxy: boolean;
  /** Registers the product's /api/v1 endpoints (catalogue, billing, tutor …) on the app. */
  registerApiRoutes: (app: FastifyInstance) => Promise<void> | void;
  /** Registers further platform routes (billing, usage, portal pages, payment provider …). */
  registerPlatformRoutes?: (app: FastifyInstance) => Promise<void> | void;
  isWithdrawn?: (endpoint: string) => boolean;
  /** Counts a call that the prepared lane answered (the router's calls are counted by their own hook). */
  recordUsage?: (accountId: string, kind: UsageKind) => void;
  /** Answer prepared GETs before the router (see PreparedLane); off only to compare the two paths in tests. */
  preparedLane?: boolean;
}

/**
 * One line per request, at a level that keeps what an operator looks for at the default `info`: failures (5xx at
 * error, 4xx at info) and slow requests. Quick successes are at debug: a line for each of thousands of data calls a
 * second cost more than the rest of the request. Then the request's metrics, by route pattern.
 *
 * Each route gets its own hook with its pattern at hand: reading `request.routeOptions` builds a dozen-field
 * object on every read. Requests no route matched (the 404 handler, which no onRoute hook sees) are recorded by an
 * instance-wide hook under "unmatched". Plain callbacks: no promise per request.
 */
function registerRequestRecording(app: FastifyInstance, metrics: Metrics): void {
  const record = (request: FastifyRequest, reply: FastifyReply, route: string) => {
    const statusCode = reply.statusCode;
    const responseTimeMs = reply.elapsedTime;
    const method = request.method;
    const level =
      statusCode >= 500 ? "error" : statusCode >= 400 || responseTimeMs >= slowRequestMs ? "info" : "debug";
    request.log[level]({ method, url: request.url, statusCode, responseTimeMs }, "request completed");
    metrics.http.observe(method, route, statusCode, responseTimeMs / 1000);
  };
  const recordAs =
    (route: string): onResponseHookHandler =>
    (request, reply, done) => {
      record(request, reply, route);
      done();
    };
  app.addHook("onRoute", (route) => {
    const existing = route.onResponse === undefined ? [] : [route.onResponse].flat();
    route.onResponse = [recordAs(route.url), ...existing];
  });
  app.addHook("onResponse", (request, reply, done) => {
    if (request.is404) record(request, reply, "unmatched");
    done();
  });
}

export async function buildApp(dependencies: AppDependencies): Promise<FastifyInstance> {
  const lane =
    dependencies.preparedLane === false
      ? null
      : new PreparedLane({
          keys: dependencies.keys,
          rateLimits: dependencies.rateLimits,
          metrics: dependencies.metrics,
          logger: dependencies.logger,
          ...(dependencies.isWithdrawn ? { isWithdrawn: dependencies.isWithdrawn } : {}),
          ...(dependencies.recordUsage ? { recordUsage: dependencies.recordUsage } : {}),
        });
  const app = Fastify({
    // Node's server as Fastify would make it, with the prepared lane in front of the router.
    serverFactory: (router, options) => {
      const server = http.createServer((request, response) => {
        const toRouter = () => router(request, response);
        if (lane) lane.handle(request, response, toRouter);
        else toRouter();
      });
      // Fastify has filled in its defaults by now; its types do not say so.
      const timeouts = options as {
        keepAliveTimeout: number;
        requestTimeout: number;
        connectionTimeout: number;
      };
      server.keepAliveTimeout = timeouts.keepAliveTimeout;
      server.requestTimeout = timeouts.requestTimeout;
      server.setTimeout(timeouts.connectionTimeout);
      return server;
    },
    loggerInstance: dependencies.logger,
    genReqId: () => newId("req"),
    bodyLimit: maxBodyBytes,
    trustProxy: dependencies.trustProxy,
    return503OnClosing: true,
    // One line per request (below) instead of Fastify's two: logging is a visible share of a data request's cost.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyRequestLogger,
    forceCloseConnections: "idle",
    clientErrorHandler: answerClientError,
    frameworkErrors: answerUnroutable,
    routerOptions: { ignoreTrailingSlash: true },
    schemaController: { compilersFactory: zodCompilersFactory },
  });

  // Remember every route's methods, so a known path with the wrong method answers 405.
  const routeMethods = new Map<string, Set<string>>();
  app.addHook("onRoute", (route) => {
    if (route.url.includes("*") || route.schema?.hide) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const known = routeMethods.get(route.url) ?? new Set<string>();
    for (const method of methods) if (method !== "HEAD" && method !== "OPTIONS") known.add(method);
    routeMethods.set(route.url, known);
  });

  if (lane) {
    app.addHook("onRoute", lane.collect);
    app.addHook("preClose", (done) => {
      lane.close();
      done();
    });
  }

  // Each route's log line and metrics, registered before any route so that every route gets them.
  registerRequestRecording(app, dependencies.metrics);

  const secureCookies = dependencies.publicUrl().startsWith("https://");
  registerApiConventions(app);
  registerApiGuard(app, {
    keys: dependencies.keys,
    rateLimits: dependencies.rateLimits,
    ...(dependencies.isWithdrawn ? { isWithdrawn: dependencies.isWithdrawn } : {}),
  });

  const { metrics } = dependencies;
  await app.register(fastifySwagger, {
    openapi: openApiInfo(),
    transform: documentRoute,
    // The document is made when first asked for, once the server listens: its server is the address people use.
    transformObject: (document) =>
      "openapiObject" in document
        ? { ...document.openapiObject, servers: [{ url: dependencies.publicUrl() }] }
        : document.swaggerObject,
    hideUntagged: true,
  });
  await app.register(fastifySwaggerUi, { routePrefix: "/docs", staticCSP: true });
  app.get(`${apiPrefix}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());

  app.get("/healthz", { schema: { hide: true } }, async () => ({ status: "ok" }));
  app.get("/readyz", { schema: { hide: true } }, async (_request, reply) => {
    try {
      await dependencies.storage.ping();
      return { status: "ready", storage: dependencies.storage.driver };
    } catch {
      return reply.code(503).send({ status: "unavailable", storage: dependencies.storage.driver });
    }
  });
  app.get("/metrics", { schema: { hide: true } }, async (request, reply) => {
    const token = dependencies.metricsToken;
    if (!token || request.headers.authorization !== `Bearer ${token}`) {
      return reply.code(token ? 401 : 404).send({ error: token ? "unauthenticated" : "not_found" });
    }
    return reply.type(metrics.registry.contentType).send(await metrics.exposition());
  });

  // The platform is for browsers with sessions: cookies and CSRF apply, CORS never does. Cookies are parsed and
  // set here only: /api/v1 reads none, and its requests should not pay for the plugin's two hooks.
  await app.register(async (platform) => {
    await platform.register(fastifyCookie);
    registerCsrf(platform, { secureCookies });
    registerAccountRoutes(platform, {
      accounts: dependencies.accounts,
      rateLimits: dependencies.rateLimits,
      secureCookies,
    });
    registerKeyRoutes(platform, { accounts: dependencies.accounts, keys: dependencies.keys });
    await dependencies.registerPlatformRoutes?.(platform);
  });
  await app.register(import("./portal/portal-plugin.ts"));

  await dependencies.registerApiRoutes(app);
  registerMethodNotAllowed(
    app,
    new Map([...routeMethods].filter(([url]) => isApiPath(url) || url.startsWith("/platform/api"))),
  );
  return app;
}
