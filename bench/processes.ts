import { spawn, type ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { freePort } from "../test/support/server-process.ts";
import type { HttpTarget } from "./http-load.ts";

export const repositoryRoot = path.resolve(import.meta.dirname, "..");

export interface StartedProcess {
  readonly target: HttpTarget;
  readonly baseUrl: string;
  readonly child: ChildProcess;
  /** From spawning the process to the first 200 from its readiness path. */
  readonly readyMs: number;
  /** Resident set size now, from /proc (Linux); null elsewhere. */
  rssBytes(): Promise<number | null>;
  /** CPU time (user + system) the process has used so far, from /proc (Linux); null elsewhere. */
  cpuMs(): Promise<number | null>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

async function rssOf(pid: number | undefined): Promise<number | null> {
  if (pid === undefined) return null;
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Clock ticks per second for /proc/<pid>/stat; 100 on every mainstream Linux build. */
const ticksPerSecond = 100;

async function cpuOf(pid: number | undefined): Promise<number | null> {
  if (pid === undefined) return null;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th of the whole line.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return null;
  }
}

async function waitUntilReady(
  child: ChildProcess,
  url: string,
  startedAt: number,
  timeoutMs: number,
  output: () => string,
): Promise<number> {
  while (performance.now() - startedAt < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(url);
      if (response.status === 200) return performance.now() - startedAt;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.kill("SIGKILL");
  throw new Error(`not ready within ${timeoutMs} ms:\n${output()}`);
}

/** Spawns a Node.js process listening on `port` and waits until `readyPath` answers 200. */
export async function startProcess(options: {
  args: string[];
  env: Record<string, string>;
  port: number;
  readyPath: string;
  timeoutMs?: number;
}): Promise<StartedProcess> {
  const startedAt = performance.now();
  const child = spawn(process.execPath, options.args, {
    cwd: repositoryRoot,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  // Keep only the tail: a service logging every request must not grow the benchmark's memory.
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-4000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const baseUrl = `http://127.0.0.1:${options.port}`;
  const readyMs = await waitUntilReady(
    child,
    `${baseUrl}${options.readyPath}`,
    startedAt,
    options.timeoutMs ?? 60_000,
    () => output,
  );
  return {
    target: { host: "127.0.0.1", port: options.port },
    baseUrl,
    child,
    readyMs,
    rssBytes: () => rssOf(child.pid),
    cpuMs: () => cpuOf(child.pid),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once("exit", (code) => resolve(code));
        child.kill("SIGTERM");
      }),
  };
}

/** `node dist/bundle/cli.mjs serve`, exactly as `npm start` runs it (bench/run.ts builds the bundle first). */
export async function startService(env: Record<string, string>): Promise<StartedProcess> {
  const port = await freePort();
  return startProcess({
    args: ["dist/bundle/cli.mjs", "serve"],
    env: { NODE_ENV: "development", HOST: "127.0.0.1", ...env, PORT: String(port) },
    port,
    readyPath: "/readyz",
  });
}

/** The bare Fastify baseline serving the files in `bodiesDirectory`. */
export async function startBaseline(bodiesDirectory: string): Promise<StartedProcess> {
  const port = await freePort();
  return startProcess({
    args: ["--import", "tsx", "bench/baseline-server.ts", bodiesDirectory, String(port)],
    env: {},
    port,
    readyPath: "/readyz",
  });
}
