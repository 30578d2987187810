import { mkdtemp, readFile, rm } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseNdjson } from "../support/ndjson-stream.ts";
import { startOpenAiStandIn, type OpenAiStandIn, type StreamProgress } from "../support/openai-stand-in.ts";
import {
  fundedDeveloperOverHttp,
  startServerProcess,
  type ServerProcess,
} from "../support/server-process.ts";

/**
 * A reader that stops reading a streamed chat must not make the service read the whole model reply into memory.
 * The service runs as its own process on the model path against the OpenAI-compatible stand-in, which (like a
 * provider's server) only writes as fast as TCP lets it; the reader is a raw TCP connection that sends the request
 * and then reads nothing. Back-pressure has to travel from the reader's socket through the service to the
 * stand-in, which is then held back with most of a very long reply unsent.
 */

type ChatEvent = {
  type: string;
  text?: string;
  usage?: { chargedPence: number; balancePence: number };
};

/** A long reply in long sentences (the output guard checks each sentence, so fewer of them keep it quick). */
const sentence = `${"Water moves across a partially permeable membrane by osmosis ".repeat(60).trim()}. `;
const longReply = sentence.repeat(Math.ceil((32 * 1024 * 1024) / sentence.length));

let standIn: OpenAiStandIn;
let dataDir: string;
let server: ServerProcess | null = null;

beforeAll(async () => {
  standIn = await startOpenAiStandIn();
});
afterEach(async () => {
  await server?.stop("SIGKILL");
  server = null;
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  standIn.reset();
});
afterAll(async () => {
  await standIn.close();
});

async function startService(env: Record<string, string>): Promise<ServerProcess> {
  dataDir = await mkdtemp(path.join(tmpdir(), "syllabi-slow-reader-"));
  server = await startServerProcess({
    DATA_DIR: dataDir,
    AI_PROVIDER: "openai-compatible",
    AI_MODEL: "stand-in",
    AI_BASE_URL: standIn.url,
    ...env,
  });
  return server;
}

/** Resident memory of a process, from /proc. */
async function residentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) * 1024;
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

async function until<T>(probe: () => T | undefined | false): Promise<T> {
  for (;;) {
    const value = probe();
    if (value) return value;
    await sleep(25);
  }
}

/**
 * Resolves once the stand-in has sent nothing more for three seconds (every buffer between it and the reader is
 * full), or has sent the whole reply. A service that ignored back-pressure would keep reading until the end.
 */
async function stoppedSending(progress: StreamProgress): Promise<void> {
  let sentBytes = progress.sentBytes;
  let unchangedSince = Date.now();
  while (progress.sentBytes < progress.totalBytes && Date.now() - unchangedSince < 3_000) {
    await sleep(100);
    if (progress.sentBytes !== sentBytes) {
      sentBytes = progress.sentBytes;
      unchangedSince = Date.now();
    }
  }
}

/**
 * POSTs a chat over a raw connection and then reads nothing: the socket is paused before any byte of the
 * answer arrives, so everything the service sends piles up in the kernel's buffers until `readToEnd`.
 */
function openUnreadChat(port: number, key: string): Promise<Socket> {
  const body = JSON.stringify({ messages: [{ role: "user", content: "Explain osmosis at length." }] });
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.pause();
      socket.write(
        [
          "POST /api/v1/chat HTTP/1.1",
          `host: 127.0.0.1:${port}`,
          `authorization: Bearer ${key}`,
          "content-type: application/json",
          `content-length: ${Buffer.byteLength(body)}`,
          "connection: close",
          "",
          body,
        ].join("\r\n"),
      );
      resolve(socket);
    });
    socket.once("error", reject);
  });
}

/** Starts reading again and collects everything until the server closes the connection. */
function readToEnd(socket: Socket): Promise<Buffer> {
  return new Promise((resolve) => {
    const received: Buffer[] = [];
    socket.removeAllListeners("error");
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    // A connection the server cut may end with a reset rather than a clean close; what arrived is kept either way.
    socket.on("error", () => {});
    socket.on("close", () => resolve(Buffer.concat(received)));
    socket.resume();
  });
}

/** The status line and the de-chunked body of a raw HTTP/1.1 response; `complete` is false when it was cut. */
function parseChunkedResponse(raw: Buffer): { status: number; body: string; complete: boolean } {
  const headerEnd = raw.indexOf("\r\n\r\n");
  const head = raw.subarray(0, headerEnd).toString("latin1");
  expect(head).toMatch(/\r\ntransfer-encoding: chunked/i);
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  const pieces: Buffer[] = [];
  let offset = headerEnd + 4;
  for (;;) {
    const lineEnd = raw.indexOf("\r\n", offset);
    if (lineEnd === -1) break;
    const size = Number.parseInt(raw.subarray(offset, lineEnd).toString("latin1"), 16);
    if (size === 0) return { status, body: Buffer.concat(pieces).toString("utf8"), complete: true };
    if (lineEnd + 2 + size > raw.length) {
      pieces.push(raw.subarray(lineEnd + 2));
      break;
    }
    pieces.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return { status, body: Buffer.concat(pieces).toString("utf8"), complete: false };
}

async function accountOf(baseUrl: string, key: string) {
  const response = await fetch(`${baseUrl}/api/v1/account`, { headers: { authorization: `Bearer ${key}` } });
  return ((await response.json()) as { billing: { balancePence: number; lifetimeSpendPence: number } })
    .billing;
}

describe("a reader that stops reading a streamed chat", () => {
  it("holds the model back instead of buffering the reply, then gets all of it, charged once", async () => {
    // Generous limits: this reader pauses for a few seconds only, and then reads a very long reply.
    const service = await startService({ AI_TIMEOUT_MS: "300000" });
    const { keys } = await fundedDeveloperOverHttp(service.baseUrl, { topUpPence: 1000 });
    // One ordinary turn first, so what the first chat loads (retrieval indexes, the provider client) is resident.
    standIn.enqueue({ kind: "text", text: "Osmosis is the movement of water across a membrane." });
    const warmUp = await fetch(`${service.baseUrl}/api/v1/chat`, {
      method: "POST",
      headers: { authorization: `Bearer ${keys[0]}`, "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "What is osmosis?" }] }),
    });
    expect(parseNdjson<ChatEvent>(await warmUp.text()).at(-1)).toMatchObject({ type: "done" });
    standIn.reset();
    standIn.setFallback(() => ({ kind: "text", text: longReply, chunkSize: 8192 }));
    const residentBefore = await residentBytes(service.child.pid!);

    const socket = await openUnreadChat(service.port, keys[0]!);
    const progress = await until(() => standIn.streams[0]);
    await stoppedSending(progress);
    const residentWhileStalled = await residentBytes(service.child.pid!);

    expect(progress.heldBack).toBe(true);
    // Ignoring back-pressure, the service would have read all of it (and held it in memory) by now.
    expect(progress.sentBytes).toBeLessThan(progress.totalBytes / 3);
    // Reading the whole reply would add at least its size; what the service holds instead is what was sent plus
    // its own heap's ups and downs (about 20 MB on a busy machine), so the bound sits between the two.
    expect(residentWhileStalled - residentBefore).toBeLessThan(progress.totalBytes * 0.75);

    const response = parseChunkedResponse(await readToEnd(socket));
    expect(response).toMatchObject({ status: 200, complete: true });
    const events = parseNdjson<ChatEvent>(response.body);
    expect(events[0]?.type).toBe("start");
    expect(events.at(-1)).toMatchObject({ type: "done", usage: { chargedPence: 4, balancePence: 992 } });
    const answer = events
      .filter((event) => event.type === "delta")
      .map((event) => event.text)
      .join("");
    expect(answer.length).toBe(longReply.length);
    expect(answer === longReply).toBe(true);
    expect(await accountOf(service.baseUrl, keys[0]!)).toMatchObject({
      balancePence: 992,
      lifetimeSpendPence: 8,
    });
  }, 240_000);

  it("is cut off after STREAM_STALL_TIMEOUT_MS, which ends the model call and returns the charge", async () => {
    const service = await startService({ AI_TIMEOUT_MS: "300000", STREAM_STALL_TIMEOUT_MS: "1000" });
    const { keys } = await fundedDeveloperOverHttp(service.baseUrl, { topUpPence: 1000 });
    standIn.setFallback(() => ({ kind: "text", text: longReply, chunkSize: 8192 }));

    const socket = await openUnreadChat(service.port, keys[0]!);
    const progress = await until(() => standIn.streams[0]);
    // The service closes the stalled connection and, with it, its request to the model.
    await progress.closed;
    expect(progress.sentBytes).toBeLessThan(progress.totalBytes);

    const response = parseChunkedResponse(await readToEnd(socket));
    expect(response).toMatchObject({ status: 200, complete: false });
    const events = parseNdjson<ChatEvent>(response.body.slice(0, response.body.lastIndexOf("\n") + 1));
    expect(events[0]?.type).toBe("start");
    expect(events.some((event) => event.type === "done")).toBe(false);

    let account = await accountOf(service.baseUrl, keys[0]!);
    while (account.balancePence !== 1000) {
      await sleep(50);
      account = await accountOf(service.baseUrl, keys[0]!);
    }
    expect(account).toMatchObject({ balancePence: 1000, lifetimeSpendPence: 0 });
    // The warning is written before the connection is closed, but it reaches this process through a pipe, which
    // can be read after the account's HTTP answer on a busy machine.
    const logged = Date.now() + 5_000;
    while (!service.output().includes("the reader stopped reading") && Date.now() < logged) await sleep(50);
    expect(service.output()).toContain("the reader stopped reading");
  }, 120_000);
});
