import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fundedDeveloperOverHttp,
  startServerProcess,
  type ServerProcess,
} from "../support/server-process.ts";

let dataDir: string;
let server: ServerProcess;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "syllabi-logging-"));
  // debug, so that every request's line is written and its level can be read.
  server = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: "debug" });
});
afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  statusCode?: number;
}

function requestLines(output: string): Map<string, LogLine> {
  const lines = new Map<string, LogLine>();
  for (const text of output.split("\n")) {
    if (!text.startsWith("{")) continue;
    const line = JSON.parse(text) as LogLine;
    if (line.msg === "request completed" && line.reqId) lines.set(line.reqId, line);
  }
  return lines;
}

async function waitForLines(ids: string[]): Promise<Map<string, LogLine>> {
  for (;;) {
    const lines = requestLines(server.output());
    if (ids.every((id) => lines.has(id))) return lines;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("request logging", () => {
  it("writes quick successes at debug and failures at info, by request id, and never the key", async () => {
    const { keys } = await fundedDeveloperOverHttp(server.baseUrl, { keys: 1 });
    const key = keys[0]!;
    const call = async (pathname: string, authorization: string) => {
      const response = await fetch(`${server.baseUrl}${pathname}`, { headers: { authorization } });
      await response.arrayBuffer();
      return { status: response.status, requestId: response.headers.get("request-id")! };
    };
    const ok = await call("/api/v1/subjects", `Bearer ${key}`);
    const missing = await call("/api/v1/subjects/no-such-subject/tree", `Bearer ${key}`);
    const unauthenticated = await call("/api/v1/subjects", `Bearer ${key.slice(0, -1)}x`);
    expect([ok.status, missing.status, unauthenticated.status]).toEqual([200, 404, 401]);

    const lines = await waitForLines([ok.requestId, missing.requestId, unauthenticated.requestId]);
    const debug = 20;
    const info = 30;
    expect(lines.get(ok.requestId)).toMatchObject({ level: debug, statusCode: 200 });
    expect(lines.get(missing.requestId)).toMatchObject({ level: info, statusCode: 404 });
    expect(lines.get(unauthenticated.requestId)).toMatchObject({ level: info, statusCode: 401 });
    expect(server.output()).not.toContain(key.slice(0, 20));
  });
});
