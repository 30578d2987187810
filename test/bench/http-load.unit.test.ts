import { createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { measureThroughput, requestOnce, type HttpTarget } from "../../bench/http-load.ts";

/**
 * The benchmark's load generator parses responses itself. A response that arrives in pieces — the head split
 * mid-line, the body over several reads, a chunked body — must still be read whole, once, and the next request
 * sent only after it.
 */

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A raw TCP server that answers each request on a connection by writing `pieces`, each in its own write. */
async function serveInPieces(piecesFor: (requestNumber: number) => string[]): Promise<HttpTarget> {
  let requestNumber = 0;
  const server = createServer((socket: Socket) => {
    let pending = "";
    socket.on("data", async (chunk: Buffer) => {
      pending += chunk.toString("latin1");
      while (pending.includes("\r\n\r\n")) {
        pending = pending.slice(pending.indexOf("\r\n\r\n") + 4);
        for (const piece of piecesFor(requestNumber++)) {
          socket.write(piece);
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
      }
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return { host: "127.0.0.1", port: address.port };
}

const lengthResponse = (body: string) => {
  const whole = `HTTP/1.1 200 OK\r\nX-Extra: one\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  // Split inside the status line, inside the blank line that ends the head, and twice in the body.
  const cuts = [5, whole.indexOf("\r\n\r\n") + 2, whole.length - 7, whole.length - 2];
  const bounds = [...new Set([0, ...cuts.filter((cut) => cut > 0 && cut < whole.length), whole.length])].sort(
    (a, b) => a - b,
  );
  return bounds.slice(1).map((end, index) => whole.slice(bounds[index], end));
};

describe("the benchmark's load generator", () => {
  it("reads a response whose head and body arrive in several pieces", async () => {
    const target = await serveInPieces(() => lengthResponse(`{"subjects":["${"x".repeat(200)}"]}`));
    const response = await requestOnce(target, { method: "GET", path: "/" });
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe(`{"subjects":["${"x".repeat(200)}"]}`);
    expect(response.headers.get("x-extra")).toBe("one");
  });

  it("reads a chunked body to its last chunk", async () => {
    const target = await serveInPieces(() => [
      "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel",
      "lo\r\n6\r\n world\r\n",
      "0\r\n\r\n",
    ]);
    const response = await requestOnce(target, { method: "GET", path: "/" });
    expect(response.status).toBe(201);
    expect(response.body.toString()).toBe("hello world");
  });

  it("counts each response once under load, with statuses other than the expected one reported", async () => {
    const target = await serveInPieces((requestNumber) =>
      requestNumber % 4 === 3
        ? ["HTTP/1.1 429 Too Many Requests\r\nContent-Length: 2\r\n\r\n{}"]
        : lengthResponse("ok"),
    );
    const result = await measureThroughput(
      target,
      { method: "GET", path: "/" },
      { connections: 3, durationMs: 300, warmupMs: 0 },
    );
    const counted = Object.values(result.statuses).reduce((sum, count) => sum + count, 0);
    expect(result.completed).toBeGreaterThan(0);
    expect(counted).toBe(result.completed);
    expect(result.statuses[429]).toBe(result.unexpected);
    expect(result.unexpected).toBeGreaterThan(0);
    expect(result.statuses[200]).toBeGreaterThan(result.unexpected);
  });
});
