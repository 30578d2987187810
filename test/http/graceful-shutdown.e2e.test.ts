import { mkdtemp, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postNdjson } from "../support/ndjson-stream.ts";
import { startOpenAiStandIn, type OpenAiStandIn } from "../support/openai-stand-in.ts";
import {
  fundedDeveloperOverHttp,
  startServerProcess,
  type ServerProcess,
} from "../support/server-process.ts";

/** Resolves once a new TCP connection to the port is refused (the listener is closed). */
async function connectionsRefused(port: number): Promise<void> {
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(false);
      });
      socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
    });
    if (refused) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

let standIn: OpenAiStandIn;
let dataDir: string;
let server: ServerProcess | null = null;

beforeAll(async () => {
  standIn = await startOpenAiStandIn();
  dataDir = await mkdtemp(path.join(tmpdir(), "syllabi-shutdown-"));
});
afterAll(async () => {
  await server?.stop("SIGKILL");
  await standIn.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("SIGTERM on `syllabi serve`", () => {
  it("finishes the streamed chat in flight, refuses new connections, and exits 0", async () => {
    server = await startServerProcess({
      DATA_DIR: dataDir,
      AI_PROVIDER: "openai-compatible",
      AI_MODEL: "stand-in",
      AI_BASE_URL: standIn.url,
    });
    const { keys } = await fundedDeveloperOverHttp(server.baseUrl);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const answer = "Photosynthesis makes glucose from carbon dioxide and water, using light energy.";
    standIn.setFallback(() => ({ kind: "gated", text: answer, release: released }));

    const stream = await postNdjson(
      `${server.baseUrl}/api/v1/chat`,
      { messages: [{ role: "user", content: "How does photosynthesis work?" }] },
      { authorization: `Bearer ${keys[0]}` },
    );
    expect(stream.status).toBe(200);
    const start = JSON.parse((await stream.nextLine())!) as { type: string };
    expect(start.type).toBe("start");

    server.child.kill("SIGTERM");
    await connectionsRefused(server.port);
    expect(server.child.exitCode).toBeNull();

    release();
    const events = (await stream.rest()).map((line) => JSON.parse(line) as Record<string, unknown>);
    const done = events.at(-1) as { type: string; usage: { chargedPence: number } };
    expect(done.type).toBe("done");
    expect(done.usage.chargedPence).toBe(4);
    const text = events
      .filter((event) => event.type === "delta")
      .map((event) => event.text)
      .join("");
    expect(text).toContain("light energy");

    expect(await server.exited).toBe(0);
    server = null;
  }, 120_000);
});
