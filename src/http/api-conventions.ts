import type {} from "@fastify/swagger";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Duplex } from "node:stream";
import { newId } from "../shared/ids.ts";
import { isStorageUnavailable } from "../storage/database.ts";
import { ApiError, errorBody } from "./errors.ts";

export const apiPrefix = "/api/v1";
export const maxBodyBytes = 256 * 1024;

const exposedHeaders = [
  "Request-Id",
  "RateLimit",
  "RateLimit-Policy",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "Retry-After",
].join(", ");

export function isApiPath(url: string): boolean {
  return url === apiPrefix || url.startsWith(`${apiPrefix}/`) || url.startsWith(`${apiPrefix}?`);
}

/**
 * Headers on every /api/v1 response: success, error, 404, 429, preflight and streams alike. Names are given in
 * lower case, as Fastify stores them (and HTTP/1.1 sends them): a mixed-case name is lowered again on every request.
 */
export const apiHeaderPairs: readonly string[] = [
  "cache-control",
  "private, no-store",
  "access-control-allow-origin",
  "*",
  "access-control-expose-headers",
  exposedHeaders,
];

export function applyApiHeaders(reply: FastifyReply): void {
  for (let index = 0; index < apiHeaderPairs.length; index += 2)
    reply.header(apiHeaderPairs[index]!, apiHeaderPairs[index + 1]);
}

/** A request that takes at least this long is logged at info even when it succeeds. */
export const slowRequestMs = 1000;

export function sendError(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.code === "method_not_allowed" && !reply.hasHeader("Allow"))
    reply.header("Allow", "GET, POST, OPTIONS");
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply.code(error.status).type("application/json; charset=utf-8").send(errorBody(error, request.id));
}

/** Maps framework errors (parsing, limits, validation) onto the closed catalogue; anything else is a 500. */
export function toApiError(error: FastifyError | ApiError | Error): ApiError {
  if (error instanceof ApiError) return error;
  if (isStorageUnavailable(error)) return new ApiError("service_unavailable");
  const code = (error as FastifyError).code;
  switch (code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new ApiError("unsupported_media_type");
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new ApiError("payload_too_large");
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return new ApiError("invalid_json");
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return new ApiError("invalid_request", {
        message: "The Content-Length header does not match the body.",
      });
  }
  const statusCode = (error as FastifyError).statusCode;
  if (error instanceof SyntaxError && statusCode === 400) return new ApiError("invalid_json");
  if (statusCode === 413) return new ApiError("payload_too_large");
  if (statusCode === 415) return new ApiError("unsupported_media_type");
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
    return new ApiError("invalid_request", { message: "The request could not be read." });
  }
  return new ApiError("internal_error");
}

/**
 * Requests the HTTP parser refuses (headers over 16 KiB, malformed request lines) never reach the router; they
 * get the contract's error body and headers too, then the connection closes. A request that stalls past the
 * timeout has no one waiting for an answer, so its socket is only closed.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT" || !socket.writable) {
    socket.destroy();
    return;
  }
  const requestId = newId("req");
  const message =
    error.code === "HPE_HEADER_OVERFLOW"
      ? "The request headers are too large (at most 16 KiB in all)."
      : "The request could not be read as HTTP.";
  const body = JSON.stringify(errorBody(new ApiError("invalid_request", { message }), requestId));
  socket.end(
    [
      "HTTP/1.1 400 Bad Request",
      "Content-Type: application/json; charset=utf-8",
      `Content-Length: ${Buffer.byteLength(body)}`,
      "Cache-Control: private, no-store",
      "Access-Control-Allow-Origin: *",
      `Access-Control-Expose-Headers: ${exposedHeaders}`,
      `Request-Id: ${requestId}`,
      "Connection: close",
      "",
      body,
    ].join("\r\n"),
  );
}

/**
 * Requests the router refuses before any hook runs (a path parameter over the router's length limit, a path
 * that cannot be percent-decoded) still get the contract's headers and error body.
 */
export function answerUnroutable(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header("request-id", request.id);
  if (isApiPath(request.url)) applyApiHeaders(reply);
  const message =
    error.code === "FST_ERR_MAX_PARAM_LENGTH"
      ? "A path parameter is too long."
      : "The request path could not be read.";
  void sendError(request, reply, new ApiError("invalid_request", { message }));
}

/**
 * Registers the cross-cutting behaviour of the JSON surfaces: request ids, /api/v1 headers and preflight,
 * the one error handler and the JSON 404.
 */
export function registerApiConventions(app: FastifyInstance): void {
  // Plain callbacks rather than async functions where nothing is awaited: no promise per request.
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("request-id", request.id);
    if (isApiPath(request.url)) applyApiHeaders(reply);
    done();
  });

  app.options(`${apiPrefix}/*`, { logLevel: "warn" }, async (_request, reply) => {
    reply
      .header("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
      .header("Access-Control-Allow-Headers", "Authorization, Content-Type, Idempotency-Key")
      .header("Access-Control-Max-Age", "600")
      .code(204)
      .send();
  });

  // POST bodies must be JSON on /api/v1, even when empty (the framework would otherwise skip parsing).
  app.addHook("preValidation", (request, _reply, done) => {
    if (request.method === "POST" && isApiPath(request.url)) {
      const type = request.headers["content-type"] ?? "";
      if (!/^application\/json\s*(;|$)/i.test(type)) return done(new ApiError("unsupported_media_type"));
    }
    done();
  });

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    const apiError = toApiError(error);
    if (apiError.code === "service_unavailable")
      request.log.warn({ err: error.message }, "dependency unavailable");
    else if (apiError.status >= 500) request.log.error({ err: error }, "request failed");
    return sendError(request, reply, apiError);
  });

  app.setNotFoundHandler((request, reply) => sendError(request, reply, new ApiError("not_found")));
}

/**
 * Fastify answers 404 for a known path with the wrong method; the contract wants 405 with Allow.
 * Call after every route is registered.
 */
export function registerMethodNotAllowed(app: FastifyInstance, routes: Map<string, Set<string>>): void {
  for (const [url, methods] of routes) {
    const allowed = [...methods, "OPTIONS"].filter((method, index, all) => all.indexOf(method) === index);
    const missing = ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((method) => !methods.has(method));
    if (missing.length === 0) continue;
    app.route({
      method: missing,
      url,
      schema: { hide: true },
      handler: async (request, reply) => {
        reply.header("Allow", allowed.join(", "));
        return sendError(request, reply, new ApiError("method_not_allowed"));
      },
    });
  }
}
