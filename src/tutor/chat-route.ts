import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { freeOfCharge } from "../billing/charging.ts";
import type { CatalogueSnapshot } from "../catalogue/model.ts";
import { apiPrefix } from "../http/api-conventions.ts";
import { principalOf } from "../http/api-guard.ts";
import { ApiError } from "../http/errors.ts";
import type { ChatEvent } from "./chat-events.ts";
import { generalChatBody, genieChatBody } from "./chat-schema.ts";
import { startChatTurn, type ChatDependencies, type ChatTurn } from "./chat-service.ts";
import { toApiErrorFromModel } from "./model-errors.ts";

const chatGuard = (endpoint: string) => ({
  scope: "chat" as const,
  ai: true,
  requiresDataUnlock: false,
  endpoint,
});

function abortOnClose(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once("close", () => {
    if (!reply.raw.writableFinished) controller.abort(new Error("client closed the connection"));
  });
  request.raw.once("aborted", () => controller.abort(new Error("client aborted")));
  return controller.signal;
}

/**
 * The events as NDJSON lines, pulled one at a time by the response stream. When the socket's write buffer is full
 * the response stops pulling, so nothing more is read from the model until the reader catches up. A line that
 * nobody has taken for `stallTimeoutMs` while the socket still waits to drain means the reader has stopped
 * reading: the connection is closed, which ends the turn like a client that went away (the price is returned
 * unless the reply was already complete).
 */
async function* ndjson(
  events: AsyncGenerator<ChatEvent>,
  reply: FastifyReply,
  stallTimeoutMs: number,
): AsyncGenerator<string> {
  let watchdog: NodeJS.Timeout | undefined;
  const cutIfStalled = () => {
    if (!reply.raw.writableNeedDrain) {
      watchdog = setTimeout(cutIfStalled, stallTimeoutMs);
      return;
    }
    reply.log.warn({ stallTimeoutMs }, "chat stream closed: the reader stopped reading");
    reply.raw.destroy();
  };
  try {
    for await (const event of events) {
      watchdog = setTimeout(cutIfStalled, stallTimeoutMs);
      yield `${JSON.stringify(event)}\n`;
      clearTimeout(watchdog);
      // The line has just been written, and Node holds each response write in the socket until the current tick's
      // work is done. The next event may need synchronous work first (the output guard checking the next
      // sentence), which would hold back text already checked; uncorking sends the line now.
      reply.raw.uncork();
    }
  } finally {
    clearTimeout(watchdog);
  }
}

/** Streams NDJSON (backpressure by the readable's pull) or collects the same events into one JSON object. */
async function answer(
  dependencies: ChatRouteDependencies,
  turn: Omit<ChatTurn, "signal">,
  stream: boolean,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  let events: AsyncGenerator<ChatEvent>;
  // A repeated Idempotency-Key: the turn is answered again (we keep no conversation text) but never charged twice.
  const charging = request.answerAgainFree ? freeOfCharge(dependencies.charging) : dependencies.charging;
  try {
    events = await startChatTurn(
      { ...dependencies, charging },
      { ...turn, signal: abortOnClose(request, reply) },
    );
  } catch (error) {
    throw toApiErrorFromModel(error);
  }
  if (stream) {
    return reply
      .type("application/x-ndjson; charset=utf-8")
      .send(Readable.from(ndjson(events, reply, dependencies.stallTimeoutMs), { objectMode: false }));
  }

  let start: Extract<ChatEvent, { type: "start" }> | undefined;
  let content = "";
  let safeguarding: Record<string, unknown> | null = null;
  let refusal: { reason: string } | null = null;
  for await (const event of events) {
    switch (event.type) {
      case "start":
        start = event;
        break;
      case "safeguarding": {
        const { type: _type, ...rest } = event;
        safeguarding = rest;
        break;
      }
      case "delta":
        content += event.text;
        break;
      case "refusal":
        refusal = { reason: event.reason };
        break;
      case "error":
        throw new ApiError(event.error);
      case "done":
        return {
          id: start?.id,
          model: start?.model,
          genie: start?.genie,
          message: { role: "assistant", content },
          finishReason: event.finishReason,
          safeguarding,
          refusal,
          usage: event.usage,
          attribution: event.attribution,
        };
    }
  }
  throw new ApiError("internal_error");
}

export interface ChatRouteDependencies extends ChatDependencies {
  catalogue: CatalogueSnapshot;
  /** How long a streamed reply waits for a reader that has stopped reading before the connection is closed. */
  stallTimeoutMs: number;
}

export function registerChatRoutes(app: FastifyInstance, dependencies: ChatRouteDependencies): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const description =
    "Streams NDJSON by default (start, safeguarding?, delta+, refusal?, done | error); `stream: false` answers one " +
    "JSON object. 4p per assistant reply; refusals, safeguarding replies and failures are free. Every turn is " +
    "checked for safeguarding offline; where the service runs a hosted or self-hosted model, the model reads the " +
    "turn as well and can only raise what the offline check found.";

  routes.post(
    `${apiPrefix}/genies/:shortName/chat`,
    {
      config: { guard: chatGuard("genie_chat"), idempotency: "answer-again" },
      schema: {
        tags: ["Tutoring"],
        summary: "Chat with a subject genie (4p per reply)",
        description,
        params: z.object({ shortName: z.string().max(100) }),
        body: genieChatBody,
      },
    },
    async (request, reply) => {
      const subject = dependencies.catalogue.subjectByGenie.get(request.params.shortName);
      if (!subject) throw new ApiError("genie_not_found", { param: "shortName" });
      const turn = {
        principal: principalOf(request),
        requestId: request.id,
        kind: "genie_chat" as const,
        messages: request.body.messages,
        tutor: { kind: "genie" as const, subject },
        teachingStyle: "friendly" as const,
      };
      return answer(dependencies, turn, request.body.stream, request, reply);
    },
  );

  routes.post(
    `${apiPrefix}/chat`,
    {
      config: { guard: chatGuard("chat"), idempotency: "answer-again" },
      schema: {
        tags: ["Tutoring"],
        summary: "Chat with the general study tutor, optionally as a custom tutor (4p per reply)",
        description,
        body: generalChatBody,
      },
    },
    async (request, reply) => {
      const { genie, messages, stream } = request.body;
      const turn = {
        principal: principalOf(request),
        requestId: request.id,
        kind: "chat" as const,
        messages,
        tutor: genie
          ? {
              kind: "custom" as const,
              genie: {
                name: genie.name,
                subject: genie.subject,
                teachingStyle: genie.teachingStyle,
                avoidTopics: genie.avoidTopics,
                ...(genie.instructions ? { instructions: genie.instructions } : {}),
              },
            }
          : { kind: "general" as const },
        teachingStyle: genie?.teachingStyle ?? "friendly",
      };
      return answer(dependencies, turn, stream, request, reply);
    },
  );
}
