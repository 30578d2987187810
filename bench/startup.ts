import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { median, type BenchRow } from "./report.ts";
import { startBaseline, startService, type StartedProcess } from "./processes.ts";

const megabytes = (bytes: number | null) => (bytes === null ? Number.NaN : bytes / 1024 / 1024);

async function startAndStop(
  start: () => Promise<StartedProcess>,
): Promise<{ readyMs: number; rssMb: number; exitCode: number | null }> {
  const started = await start();
  const rssMb = megabytes(await started.rssBytes());
  const exitCode = await started.stop();
  return { readyMs: started.readyMs, rssMb, exitCode };
}

/**
 * Cold start of `node dist/bundle/cli.mjs serve` (what `npm start` runs) on PGlite until /readyz answers, first on an empty data directory
 * (migrations included) and then on an existing one, beside a bare Fastify process started the same way.
 */
export async function benchStartup(options: {
  serviceEnv: Record<string, string>;
  restarts: number;
}): Promise<{ rows: BenchRow[]; dataDir: string }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "syllabi-bench-data-"));
  const env = { ...options.serviceEnv, DATA_DIR: dataDir };
  const fresh = await startAndStop(() => startService(env));
  const restarts = [];
  for (let run = 0; run < options.restarts; run += 1)
    restarts.push(await startAndStop(() => startService(env)));

  const bodies = await mkdtemp(path.join(tmpdir(), "syllabi-bench-bodies-"));
  await writeFile(path.join(bodies, "empty.json"), "{}");
  const baselines = [];
  for (let run = 0; run < options.restarts; run += 1)
    baselines.push(await startAndStop(() => startBaseline(bodies)));
  const baselineReadyMs = median(baselines.map((run) => run.readyMs));
  const baselineRssMb = median(baselines.map((run) => run.rssMb));
  const unclean = [fresh, ...restarts].filter((run) => run.exitCode !== 0).length;
  if (unclean > 0) console.warn(`  ${unclean} service run(s) did not exit 0 on SIGTERM`);

  const baselineName = "bare Fastify via tsx";
  return {
    dataDir,
    rows: [
      {
        case: "cold start (PGlite)",
        measure: "spawn → /readyz 200, empty data dir (migrations)",
        unit: "ms",
        service: fresh.readyMs,
        baseline: baselineReadyMs,
        baselineName,
      },
      {
        case: "cold start (PGlite)",
        measure: `spawn → /readyz 200, existing data dir (median of ${options.restarts})`,
        unit: "ms",
        service: median(restarts.map((run) => run.readyMs)),
        baseline: baselineReadyMs,
        baselineName,
        target: { maximum: 2000 },
      },
      {
        case: "memory after start",
        measure: "RSS once /readyz answers",
        unit: "MB",
        service: median(restarts.map((run) => run.rssMb)),
        baseline: baselineRssMb,
        baselineName,
      },
    ],
  };
}
