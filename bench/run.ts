import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { benchCatalogue, keysPerRound, prepareCatalogue, type Settings } from "./catalogue.ts";
import { fundedDeveloperOverHttp as fundedDeveloper } from "../test/support/server-process.ts";
import { benchInProcess } from "./in-process.ts";
import { benchModelPath } from "./model-path.ts";
import { benchAlign, benchChat, preparePaid } from "./paid.ts";
import { repositoryRoot, startBaseline, startService, type StartedProcess } from "./processes.ts";
import { formatMarkdown, formatTable, meetsTarget, type BenchRow } from "./report.ts";
import { benchStartup } from "./startup.ts";

/**
 * `npm run bench [-- --quick] [-- --markdown]`: the service as `npm start` runs it (`node dist/bundle/cli.mjs serve`,
 * full stack: key check, rate limits, headers, logging at the default level) beside a bare Fastify process
 * sending the same bytes, measured in the same run so the ratios hold on any machine.
 */
const flags = new Set(process.argv.slice(2));
const quick = flags.has("--quick");
const settings: Settings = quick
  ? { connections: 16, durationMs: 1000, warmupMs: 300, rounds: 1, latencyRounds: 1 }
  : { connections: 16, durationMs: 3000, warmupMs: 1000, rounds: 3, latencyRounds: 3 };
const postgresUrl = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** Limits raised to their maximum so the limiter still runs on every request but never refuses one. */
const serviceEnv: Record<string, string> = {
  RATE_LIMIT_GENERAL_PER_MIN: "100000",
  RATE_LIMIT_AI_PER_MIN: "100000",
  RATE_LIMIT_IP_PER_MIN: "100000",
  LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info",
};

const log = (line: string) => process.stderr.write(`${line}\n`);

async function writeBodies(bodies: Map<string, string>): Promise<string> {
  const directory = await mkdtemp(path.join(os.tmpdir(), "syllabi-bench-bodies-"));
  for (const [name, body] of bodies) await writeFile(path.join(directory, name), body);
  return directory;
}

async function withProcesses<T>(processes: StartedProcess[], work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } finally {
    for (const started of processes) await started.stop();
  }
}

async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const name = `syllabi_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch (error) {
    log(`PostgreSQL at ${postgresUrl} is not reachable (${(error as Error).message}): skipping its cases`);
    return null;
  }
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

async function main(): Promise<void> {
  // The same bundle `npm start` builds and runs.
  execFileSync("npm", ["run", "build", "--silent"], { cwd: repositoryRoot, stdio: "inherit" });
  const started = performance.now();
  const cpus = os.cpus();
  const machine =
    `${cpus.length} × ${cpus[0]?.model ?? "unknown CPU"}, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB, ` +
    `${os.type()} ${os.release()}, Node.js ${process.version}, load average ${os.loadavg()[0]!.toFixed(2)} at start`;
  log(`machine: ${machine}`);
  const rows: BenchRow[] = [];

  log("catalogue memory and offline align, in process …");
  rows.push(...(await benchInProcess()));

  log("cold start …");
  const startup = await benchStartup({ serviceEnv, restarts: quick ? 1 : 2 });
  rows.push(...startup.rows);

  log("data endpoints, search, align and chat on PGlite …");
  const service = await startService({ ...serviceEnv, DATA_DIR: startup.dataDir });
  await withProcesses([service], async () => {
    const reader = await fundedDeveloper(service.baseUrl, { keys: 3, topUpPence: 1000 });
    const payer = await fundedDeveloper(service.baseUrl, { keys: 1, topUpPence: 10000 });
    const keys = { subjects: reader.keys[0]!, tree: reader.keys[1]!, search: reader.keys[2]! };
    const roundKeys: string[] = [];
    while (roundKeys.length < settings.rounds * 2 * keysPerRound)
      roundKeys.push(...(await fundedDeveloper(service.baseUrl, { keys: 5, topUpPence: 1000 })).keys);
    const catalogue = await prepareCatalogue(service, keys);
    const paid = await preparePaid(service.target, payer.keys[0]!);
    const baseline = await startBaseline(await writeBodies(new Map([...catalogue.bodies, ...paid.bodies])));
    await withProcesses([baseline], async () => {
      rows.push(
        ...(await benchCatalogue({ service, baseline, keys, roundKeys, prepared: catalogue, settings })),
      );
      rows.push(...(await benchAlign({ label: "PGlite", service, baseline, requests: paid, settings })));
      rows.push(...(await benchChat({ service, baseline, requests: paid, samples: quick ? 5 : 30 })));
    });
  });
  await rm(startup.dataDir, { recursive: true, force: true });

  log("chat on the model path (local OpenAI-compatible stand-in) …");
  rows.push(
    ...(await benchModelPath({
      serviceEnv,
      samples: quick ? 5 : 50,
      warmupMs: quick ? 500 : 2000,
      warmupCalls: quick ? 50 : 200,
      steadyCalls: quick ? 100 : 1000,
    })),
  );

  const database = flags.has("--no-postgres") ? null : await createPostgresDatabase();
  if (database) {
    log("align on PostgreSQL …");
    try {
      const onPostgres = await startService({ ...serviceEnv, DATABASE_URL: database.url });
      await withProcesses([onPostgres], async () => {
        const payer = await fundedDeveloper(onPostgres.baseUrl, { keys: 1, topUpPence: 10000 });
        const paid = await preparePaid(onPostgres.target, payer.keys[0]!);
        const baseline = await startBaseline(await writeBodies(paid.bodies));
        await withProcesses([baseline], async () => {
          rows.push(
            ...(await benchAlign({
              label: "PostgreSQL",
              service: onPostgres,
              baseline,
              requests: paid,
              settings,
            })),
          );
        });
      });
    } finally {
      await database.drop();
    }
  }

  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(`\nSyllabi benchmarks (${quick ? "quick" : "full"} run, ${seconds.toFixed(0)} s)\n`);
  process.stdout.write(`machine: ${machine}\n\n`);
  process.stdout.write(`${formatTable(rows)}\n`);
  if (flags.has("--markdown")) process.stdout.write(`\n${formatMarkdown(rows)}\n`);
  const missed = rows.filter((row) => meetsTarget(row) === false);
  if (missed.length > 0)
    process.stdout.write(
      `\n${missed.length} figure(s) missed their target: ${missed.map((row) => row.measure).join("; ")}\n`,
    );
}

await main();
