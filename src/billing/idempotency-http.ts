import { pipeline, Transform, type Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { principalOf } from "../http/api-guard.ts";
import { ApiError } from "../http/errors.ts";
import { hashBody, type IdempotencyStore } from "./idempotency.ts";

/**
 * How a paid route answers a repeated Idempotency-Key with the same body:
 * - "replay": the first response is stored (24 h) and sent again byte for byte (align, questions);
 * - "answer-again": nothing of the response is stored, because we keep no conversation text, so the turn is
 *   answered afresh free of charge (chat). The client is never charged twice either way.
 */
export type IdempotencyMode = "replay" | "answer-again";

interface StoredReplay {
  contentType: string;
  payload: string;
}

interface Claim {
  accountId: string;
  key: string;
  mode: IdempotencyMode;
}

declare module "fastify" {
  interface FastifyContextConfig {
    idempotency?: IdempotencyMode;
  }
  interface FastifyRequest {
    idempotencyClaim: Claim | null;
    /** True when this request repeats an answered chat turn: run it, charge nothing. */
    answerAgainFree: boolean;
  }
}

export const replayedHeader = "Idempotent-Replayed";

function keyFrom(request: FastifyRequest): string | null {
  const header = request.headers["idempotency-key"];
  if (header === undefined) return null;
  if (typeof header !== "string" || header.length < 1 || header.length > 255) {
    throw new ApiError("invalid_request", {
      param: "Idempotency-Key",
      message: "Idempotency-Key must be one header of 1 to 255 characters.",
    });
  }
  return header;
}

/** Streams and strings alike: did this response charge for its work? */
function chargedIn(text: string): boolean {
  const lastLine = text.trimEnd().split("\n").at(-1) ?? "";
  try {
    const parsed = JSON.parse(lastLine) as { usage?: { chargedPence?: number } };
    return (parsed.usage?.chargedPence ?? 0) > 0;
  } catch {
    return false;
  }
}

function isStream(payload: unknown): payload is Readable {
  return typeof payload === "object" && payload !== null && typeof (payload as Readable).pipe === "function";
}

function asList<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}

/**
 * Adds Idempotency-Key handling to the routes that declare `config.idempotency`. It runs after the guard and
 * validation, so a bad request is refused before a key is claimed. Only a successful answer completes a key; any
 * other outcome forgets it, so the client can retry with the same key once the problem is fixed (say, after a
 * top-up). The hooks are attached to those routes alone (call before they are registered), so no other request
 * runs them.
 */
export function registerIdempotency(app: FastifyInstance, store: IdempotencyStore): void {
  app.decorateRequest("idempotencyClaim", null);
  app.decorateRequest("answerAgainFree", false);

  const claim = async (request: FastifyRequest, reply: FastifyReply) => {
    const mode = request.routeOptions.config.idempotency;
    if (!mode) return;
    const key = keyFrom(request);
    if (key === null) return;
    const { accountId } = principalOf(request);
    // The route is part of the hash, so one key cannot be replayed against another endpoint.
    const bodyHash = hashBody(
      JSON.stringify({ route: request.routeOptions.url, params: request.params, body: request.body }),
    );
    const begun = await store.begin({ accountId, key, bodyHash });
    if (begun.kind === "conflict") throw new ApiError("idempotency_conflict", { param: "Idempotency-Key" });
    if (begun.kind === "new") {
      request.idempotencyClaim = { accountId, key, mode };
      return;
    }
    reply.header(replayedHeader, "true");
    const stored = begun.body as Partial<StoredReplay> | null;
    if (mode === "replay" && stored?.payload !== undefined) {
      return reply
        .status(begun.status)
        .type(stored.contentType ?? "application/json; charset=utf-8")
        .send(stored.payload);
    }
    request.answerAgainFree = true;
  };

  const settle = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    request.idempotencyClaim = null;
    const forget = () => store.abandon(claim).catch(() => {});
    if (reply.statusCode < 200 || reply.statusCode >= 300) {
      await forget();
      return payload;
    }
    const complete = (body: StoredReplay | { answeredAgain: true }) =>
      store.complete({ ...claim, status: reply.statusCode, body }).catch(() => {});

    if (isStream(payload)) {
      // Decided when the stream ends: a turn that streamed to its charged `done` line is complete; one that ended
      // in an error event or a dropped connection was not charged and is forgotten.
      let tail = "";
      const observer = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          tail = (tail + chunk.toString()).slice(-4096);
          callback(null, chunk);
        },
      });
      // pipeline, not pipe: if the client goes away, the source is destroyed too and the turn is released.
      pipeline(payload, observer, (error) => {
        void (!error && chargedIn(tail) ? complete({ answeredAgain: true }) : forget());
      });
      return observer;
    }

    const text = typeof payload === "string" ? payload : Buffer.isBuffer(payload) ? payload.toString() : "";
    if (!chargedIn(text)) {
      await forget();
      return payload;
    }
    if (claim.mode === "replay") {
      const contentType = String(reply.getHeader("content-type") ?? "application/json; charset=utf-8");
      await complete({ contentType, payload: text });
    } else {
      await complete({ answeredAgain: true });
    }
    return payload;
  };

  app.addHook("onRoute", (route) => {
    if (!route.config?.idempotency) return;
    route.preHandler = [...asList(route.preHandler), claim];
    route.onSend = [...asList(route.onSend), settle];
  });
}
