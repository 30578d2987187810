import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";

/** A response body serialised and encoded once, with the strong validator clients can send back. */
export interface PreparedBody {
  bytes: Buffer;
  etag: string;
}

export const jsonContentType = "application/json; charset=utf-8";

export function prepareBody(value: unknown): PreparedBody {
  const bytes = Buffer.from(JSON.stringify(value));
  return { bytes, etag: `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 32)}"` };
}

/** RFC 9110 If-None-Match: a list of entity tags (weak comparison) or `*`. */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/**
 * The prepared bytes through Fastify, or 304 Not Modified when the client already holds them. The handlers that
 * call it are plain functions, not async ones: nothing is awaited, and a promise per request is work for nothing.
 */
export function sendPrepared(request: FastifyRequest, reply: FastifyReply, body: PreparedBody): FastifyReply {
  reply.header("etag", body.etag);
  if (matchesEtag(request.headers["if-none-match"], body.etag)) return reply.code(304).send();
  return reply.type(jsonContentType).send(body.bytes);
}
