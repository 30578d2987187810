import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { PlatformClient } from "./harness.ts";

/**
 * The real server as an operator runs it — `node bin/syllabi.js serve` in its own process — for the tests that
 * need signals, exit codes or a process that dies (shutdown, kill -9, several instances).
 */

const repositoryRoot = path.resolve(import.meta.dirname, "../..");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  readonly baseUrl: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM (or the given signal) and the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Spawns `syllabi serve` with `env` on a free port and waits until /readyz answers 200. `entry` is the script
 * node runs: the TypeScript through tsx by default, or a built bundle.
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: { entry?: string } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [options.entry ?? "bin/syllabi.js", "serve"], {
    cwd: repositoryRoot,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "test",
      LOG_LEVEL: "warn",
      HOST: "127.0.0.1",
      ...env,
      PORT: String(port),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;

  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `the server exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${output}`,
      );
    const ready = await fetch(`${baseUrl}/readyz`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  return {
    baseUrl,
    port,
    child,
    exited,
    output: () => output,
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

let developerCounter = 0;

/**
 * A developer registered through the platform API of a running server, with keys and a top-up paid on the
 * embedded provider's form, the way a person does it in the portal; waits until the webhook moved the balance.
 */
export async function fundedDeveloperOverHttp(
  baseUrl: string,
  options: { keys?: number; topUpPence?: 1000 | 2500 | 10000 } = {},
): Promise<{ client: PlatformClient; keys: string[]; accountId: string }> {
  const client = new PlatformClient(baseUrl);
  const expectStatus = async (response: Response, status: number, what: string) => {
    if (response.status !== status) throw new Error(`${what}: ${response.status} ${await response.text()}`);
    return response;
  };
  developerCounter += 1;
  const registered = await expectStatus(
    await client.request("POST", "/platform/api/register", {
      email: `process-${process.pid}-${developerCounter}-${Date.now()}@example.test`,
      password: "a password long enough for the rules",
      name: "Process test",
      useCase: "Testing the service as a separate process",
      acceptTerms: true,
    }),
    201,
    "register",
  );
  const { account } = (await registered.json()) as { account: { id: string } };
  const keys: string[] = [];
  for (let index = 0; index < (options.keys ?? 1); index += 1) {
    const created = await expectStatus(
      await client.request("POST", "/platform/api/keys", { name: `key ${index}` }),
      201,
      "create key",
    );
    keys.push(((await created.json()) as { secret: string }).secret);
  }
  const amountPence = options.topUpPence ?? 1000;
  const checkout = await expectStatus(
    await client.request("POST", "/platform/api/billing/checkout", { amountPence }),
    200,
    "checkout",
  );
  const { url } = (await checkout.json()) as { url: string };
  await expectStatus(
    await fetch(`${baseUrl}${new URL(url).pathname}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ cardNumber: "4242424242424242" }),
    }),
    200,
    "pay",
  );
  // The provider's webhook moves the balance; it is delivered at once and retried until acknowledged.
  for (;;) {
    const billing = await expectStatus(await client.request("GET", "/platform/api/billing"), 200, "billing");
    if (((await billing.json()) as { balancePence: number }).balancePence >= amountPence) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { client, keys, accountId: account.id };
}
