import pino from "pino";
import { Writable } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { lazyRequestLogger } from "../../src/observability/logger.ts";
import type { IncomingMessage } from "node:http";

function capturingLogger(level: string) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString("utf8")) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level }, sink), lines };
}

function requestLogger(parent: FastifyBaseLogger, options: { level?: string } = {}): FastifyBaseLogger {
  return lazyRequestLogger.call(
    {} as FastifyInstance,
    parent,
    { reqId: "req_abc" },
    options,
    {} as IncomingMessage,
  );
}

describe("the per-request logger", () => {
  it("makes no child for a line below the level, and writes enabled lines with the request id", () => {
    const { logger, lines } = capturingLogger("info");
    const child = vi.spyOn(logger, "child");
    const log = requestLogger(logger);
    log.debug({ statusCode: 200 }, "request completed");
    log.trace("nothing");
    expect(child).not.toHaveBeenCalled();
    log.info({ statusCode: 404 }, "request completed");
    log.error({ statusCode: 500 }, "request completed");
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines.map((line) => [line.level, line.reqId, line.statusCode, line.msg])).toEqual([
      [30, "req_abc", 404, "request completed"],
      [50, "req_abc", 500, "request completed"],
    ]);
  });

  it("follows a route's own level and a level set later", () => {
    const { logger, lines } = capturingLogger("info");
    const log = requestLogger(logger, { level: "warn" });
    expect(log.level).toBe("warn");
    log.info("dropped");
    log.warn("kept");
    log.level = "debug";
    log.debug("now kept");
    expect(lines.map((line) => line.msg)).toEqual(["kept", "now kept"]);
  });

  it("hands child() to a real pino child carrying the request id", () => {
    const { logger, lines } = capturingLogger("info");
    requestLogger(logger).child({ part: "billing" }).info("hello");
    expect(lines[0]).toMatchObject({ reqId: "req_abc", part: "billing", msg: "hello" });
  });
});
