import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { secondReaderSchemaName } from "../../src/safeguarding/model-reader.ts";

/**
 * A local OpenAI-compatible server for tests: real HTTP on 127.0.0.1, scripted replies and failures, and a
 * record of every request so tests can assert what the client actually sent.
 */

export type StandInReply =
  /** Plain assistant text, streamed in `chunkSize`-character chunks when the request asks for a stream. */
  | {
      kind: "text";
      text: string;
      chunkSize?: number;
      usage?: { promptTokens: number; completionTokens: number };
      /** A pause before each streamed chunk, as a slow model produces tokens. */
      chunkDelayMs?: number;
    }
  /** A structured-output answer: JSON content, or a tool call when the request forced one. */
  | { kind: "json"; value: unknown }
  /** Content returned verbatim even if the client asked for JSON (e.g. invalid JSON). */
  | { kind: "raw"; content: string }
  | { kind: "http-error"; status: number; message?: string }
  /**
   * Accepts the request and sends nothing for `ms`, or until the client gives up; with `afterHeaders` the
   * 200 and SSE headers go out first, so the stall is inside an open stream.
   */
  | { kind: "stall"; ms?: number; afterHeaders?: boolean }
  /** Streams the first `chunks` chunks of `text`, then drops the connection. */
  | { kind: "disconnect"; text: string; chunks: number; chunkSize?: number }
  /**
   * Streams the first chunk of `text`, then holds the stream open until `release` settles, then sends the rest
   * and ends normally: a slow model whose pace the test decides.
   */
  | { kind: "gated"; text: string; release: Promise<void>; chunkSize?: number };

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage["headers"];
  body: ChatCompletionBody & Record<string, unknown>;
}

interface ChatCompletionBody {
  model?: string;
  stream?: boolean;
  messages?: { role: string; content: unknown }[];
  response_format?: { type: string; json_schema?: { name?: string; schema?: unknown } };
  tools?: { type: string; function: { name: string } }[];
  tool_choice?: unknown;
  stream_options?: { include_usage?: boolean };
  input?: string | string[];
}

/**
 * How far one streamed text completion has got. Like a provider's server, the stand-in waits for 'drain' when the
 * socket's write buffer is full, so a client that stops reading holds it back through TCP.
 */
export interface StreamProgress {
  /** Bytes of the event stream written so far. */
  readonly sentBytes: number;
  /** Bytes of the whole event stream, when sent in full. */
  readonly totalBytes: number;
  /** Waiting for the client to read before writing more. */
  readonly heldBack: boolean;
  /** Resolves when the connection to the client has closed (ended or cut). */
  readonly closed: Promise<void>;
}

export interface OpenAiStandIn {
  /** Base URL including `/v1`, ready for `baseUrl`. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Every streamed text completion so far, in order. */
  readonly streams: StreamProgress[];
  /** Replies are used in order; when the queue is empty the fallback answers. */
  enqueue(...replies: StandInReply[]): void;
  setFallback(reply: (request: RecordedRequest) => StandInReply): void;
  /** Chat completion requests, leaving out those answered by `setSchemaReply`. */
  chatRequests(): RecordedRequest[];
  /**
   * Answers structured-output requests for the schema called `name` with `reply`, apart from the queue and the
   * fallback, so a side call (the safeguarding second reading) does not take the tutor's scripted reply. By
   * default the app's safeguarding check is answered "none".
   */
  setSchemaReply(name: string, reply: (request: RecordedRequest) => StandInReply): void;
  /** The requests answered for the schema called `name`. */
  schemaRequests(name: string): RecordedRequest[];
  /** The system message text of a recorded chat request. */
  systemPromptOf(request: RecordedRequest): string;
  reset(): void;
  close(): Promise<void>;
}

const defaultFallback = (): StandInReply => ({ kind: "text", text: "Hello from the stand-in model." });
const defaultSchemaReplies = (): Map<string, (request: RecordedRequest) => StandInReply> =>
  new Map([
    [secondReaderSchemaName, () => ({ kind: "json", value: { category: "none", severity: "none" } })],
  ]);

/** The name of the structured output a request asks for: its JSON schema's, or the tool it forces. */
function schemaNameOf(body: ChatCompletionBody): string | null {
  return body.response_format?.json_schema?.name ?? forcedToolName(body);
}

export async function startOpenAiStandIn(): Promise<OpenAiStandIn> {
  const requests: RecordedRequest[] = [];
  const streams: StreamProgress[] = [];
  const queue: StandInReply[] = [];
  let fallback: (request: RecordedRequest) => StandInReply = defaultFallback;
  let schemaReplies = defaultSchemaReplies();
  const answeredBySchema = new WeakSet<RecordedRequest>();
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let counter = 0;

  const server = createServer((request, response) => {
    void handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
      else response.destroy();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const raw = await readBody(request);
    const path = (request.url ?? "/").split("?")[0] ?? "/";
    let body: RecordedRequest["body"];
    try {
      body = raw ? (JSON.parse(raw) as RecordedRequest["body"]) : {};
    } catch {
      return sendJson(response, 400, {
        error: { message: "invalid JSON body", type: "invalid_request_error" },
      });
    }
    const recorded: RecordedRequest = { path, headers: request.headers, body };
    requests.push(recorded);
    if (request.method !== "POST")
      return sendJson(response, 405, { error: { message: "method not allowed" } });
    if (path === "/v1/embeddings") return sendEmbeddings(response, body);
    if (path !== "/v1/chat/completions")
      return sendJson(response, 404, { error: { message: `no route ${path}` } });

    const schemaReply = schemaReplies.get(schemaNameOf(body) ?? "");
    if (schemaReply) answeredBySchema.add(recorded);
    const reply = schemaReply ? schemaReply(recorded) : (queue.shift() ?? fallback(recorded));
    counter += 1;
    const id = `chatcmpl-standin-${counter}`;
    const model = body.model ?? "stand-in";
    switch (reply.kind) {
      case "http-error": {
        const headers: Record<string, string> = reply.status === 429 ? { "retry-after": "1" } : {};
        return sendJson(
          response,
          reply.status,
          {
            error: {
              message: reply.message ?? `stand-in error ${reply.status}`,
              type: "server_error",
              code: reply.status,
            },
          },
          headers,
        );
      }
      case "stall": {
        if (reply.afterHeaders) {
          startSse(response);
          response.flushHeaders();
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, reply.ms ?? 60_000);
          timers.add(timer);
          request.socket.once("close", () => {
            clearTimeout(timer);
            resolve();
          });
        });
        if (!response.destroyed) response.destroy();
        return;
      }
      case "disconnect": {
        const chunks = chunk(reply.text, reply.chunkSize ?? 8).slice(0, reply.chunks);
        startSse(response);
        writeSse(response, chunkPayload(id, model, { role: "assistant", content: "" }, null));
        for (const piece of chunks) writeSse(response, chunkPayload(id, model, { content: piece }, null));
        // Give the client time to read what was sent, then drop the socket without a clean end.
        await new Promise((resolve) => setTimeout(resolve, 30));
        response.socket?.destroy();
        return;
      }
      case "gated": {
        const [first = "", ...rest] = chunk(reply.text, reply.chunkSize ?? 6);
        startSse(response);
        writeSse(response, chunkPayload(id, model, { role: "assistant", content: "" }, null));
        writeSse(response, chunkPayload(id, model, { content: first }, null));
        await reply.release;
        if (response.destroyed) return;
        for (const piece of rest) writeSse(response, chunkPayload(id, model, { content: piece }, null));
        endStream(response, body, id, model, reply.text);
        return;
      }
      case "text":
        return sendContent(
          response,
          body,
          id,
          model,
          reply.text,
          reply.chunkSize ?? 6,
          reply.usage,
          reply.chunkDelayMs,
          streams,
        );
      case "raw":
        return sendContent(response, body, id, model, reply.content, 16);
      case "json": {
        const text = JSON.stringify(reply.value);
        const forcedTool = forcedToolName(body);
        if (forcedTool) return sendToolCall(response, body, id, model, forcedTool, text);
        return sendContent(response, body, id, model, text, 24);
      }
    }
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    streams,
    enqueue: (...replies) => queue.push(...replies),
    setFallback: (reply) => {
      fallback = reply;
    },
    chatRequests: () =>
      requests.filter((request) => request.path === "/v1/chat/completions" && !answeredBySchema.has(request)),
    setSchemaReply: (name, reply) => {
      schemaReplies.set(name, reply);
    },
    schemaRequests: (name) =>
      requests.filter((request) => answeredBySchema.has(request) && schemaNameOf(request.body) === name),
    systemPromptOf: (request) =>
      (request.body.messages ?? [])
        .filter((message) => message.role === "system")
        .map((message) =>
          typeof message.content === "string" ? message.content : JSON.stringify(message.content),
        )
        .join("\n"),
    reset: () => {
      requests.length = 0;
      streams.length = 0;
      queue.length = 0;
      fallback = defaultFallback;
      schemaReplies = defaultSchemaReplies();
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    request.on("error", reject);
  });
}

function sendJson(
  response: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(value));
}

function startSse(response: ServerResponse): void {
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
}

function sseEvent(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}

function writeSse(response: ServerResponse, value: unknown): void {
  response.write(sseEvent(value));
}

function chunk(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let index = 0; index < text.length; index += size) pieces.push(text.slice(index, index + size));
  return pieces;
}

function chunkPayload(
  id: string,
  model: string,
  delta: Record<string, unknown>,
  finishReason: string | null,
) {
  return {
    id,
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

function usageOf(
  body: ChatCompletionBody,
  completion: string,
  usage?: { promptTokens: number; completionTokens: number },
) {
  const promptTokens = usage?.promptTokens ?? Math.ceil(JSON.stringify(body.messages ?? []).length / 4);
  const completionTokens = usage?.completionTokens ?? Math.ceil(completion.length / 4);
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}

async function sendContent(
  response: ServerResponse,
  body: ChatCompletionBody,
  id: string,
  model: string,
  text: string,
  chunkSize: number,
  usage?: { promptTokens: number; completionTokens: number },
  chunkDelayMs = 0,
  streams: StreamProgress[] = [],
): Promise<void> {
  if (!body.stream) {
    return sendJson(response, 200, {
      id,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
      usage: usageOf(body, text, usage),
    });
  }
  const pieces = chunk(text, chunkSize);
  const events = pieces.map((piece) => sseEvent(chunkPayload(id, model, { content: piece }, null)));
  const progress = {
    sentBytes: 0,
    totalBytes: events.reduce((sum, event) => sum + Buffer.byteLength(event), 0),
    heldBack: false,
    closed: new Promise<void>((resolve) => response.once("close", () => resolve())),
  };
  streams.push(progress);
  startSse(response);
  writeSse(response, chunkPayload(id, model, { role: "assistant", content: "" }, null));
  for (const event of events) {
    if (chunkDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, chunkDelayMs));
    // The client hung up (our service stopped reading the model): stop generating, as a provider does.
    if (response.destroyed || response.writableEnded) return;
    progress.sentBytes += Buffer.byteLength(event);
    if (!response.write(event)) {
      progress.heldBack = true;
      await Promise.race([once(response, "drain"), progress.closed]);
      progress.heldBack = false;
    }
  }
  if (response.destroyed) return;
  endStream(response, body, id, model, text, usage);
}

/** The end of a streamed completion: the stop chunk, the usage chunk when asked for, and `[DONE]`. */
function endStream(
  response: ServerResponse,
  body: ChatCompletionBody,
  id: string,
  model: string,
  text: string,
  usage?: { promptTokens: number; completionTokens: number },
): void {
  writeSse(response, chunkPayload(id, model, {}, "stop"));
  if (body.stream_options?.include_usage) {
    writeSse(response, {
      id,
      object: "chat.completion.chunk",
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [],
      usage: usageOf(body, text, usage),
    });
  }
  response.end("data: [DONE]\n\n");
}

function forcedToolName(body: ChatCompletionBody): string | null {
  const choice = body.tool_choice as { type?: string; function?: { name?: string } } | string | undefined;
  if (choice && typeof choice === "object" && choice.function?.name) return choice.function.name;
  if ((choice === "required" || choice === "any") && body.tools?.[0]) return body.tools[0].function.name;
  return null;
}

function sendToolCall(
  response: ServerResponse,
  body: ChatCompletionBody,
  id: string,
  model: string,
  name: string,
  argumentsText: string,
): void {
  const call = { id: `call_${id}`, type: "function", function: { name, arguments: argumentsText } };
  if (!body.stream) {
    return sendJson(response, 200, {
      id,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: null, tool_calls: [call] },
          finish_reason: "tool_calls",
        },
      ],
      usage: usageOf(body, argumentsText),
    });
  }
  startSse(response);
  writeSse(
    response,
    chunkPayload(
      id,
      model,
      { role: "assistant", tool_calls: [{ index: 0, ...call, function: { name, arguments: "" } }] },
      null,
    ),
  );
  for (const piece of chunk(argumentsText, 24))
    writeSse(
      response,
      chunkPayload(id, model, { tool_calls: [{ index: 0, function: { arguments: piece } }] }, null),
    );
  writeSse(response, chunkPayload(id, model, {}, "tool_calls"));
  response.end("data: [DONE]\n\n");
}

/** Deterministic pseudo-embeddings: the same text always maps to the same unit vector. */
function sendEmbeddings(response: ServerResponse, body: ChatCompletionBody): void {
  const inputs = Array.isArray(body.input) ? body.input : [body.input ?? ""];
  const data = inputs.map((text, index) => ({
    object: "embedding",
    index,
    embedding: embedText(String(text)),
  }));
  const tokens = inputs.reduce((sum, text) => sum + Math.ceil(String(text).length / 4), 0);
  sendJson(response, 200, {
    object: "list",
    data,
    model: body.model ?? "stand-in-embedding",
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}

function embedText(text: string, dimensions = 16): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().split(/\W+/).filter(Boolean)) {
    let hash = 2166136261;
    for (let index = 0; index < word.length; index += 1)
      hash = Math.imul(hash ^ word.charCodeAt(index), 16777619);
    const slot = (hash >>> 0) % dimensions;
    vector[slot] = (vector[slot] ?? 0) + 1;
  }
  const length = Math.hypot(...vector) || 1;
  return vector.map((value) => value / length);
}
