import path from "node:path";
import { devBootstrap } from "./billing/dev-bootstrap.ts";
import { runCatalogueCheck } from "./catalogue/check-command.ts";
import { ConfigError, parseConfig, type Config } from "./config.ts";
import {
  parseFlags,
  postChangelog,
  restoreEndpoint,
  rollUpUsage,
  schedulePrice,
  suspendAccount,
  withdrawEndpoint,
  type OperatorOutcome,
} from "./operator/operator-commands.ts";
import { createRuntime, type Runtime } from "./runtime.ts";
import { openStorage } from "./storage/database.ts";
import type { EarlyPglite } from "./storage/pglite-opening.ts";

const [command, ...rest] = process.argv.slice(2);
const print = (line: string) => process.stdout.write(`${line}\n`);
const usage = `usage: syllabi <command>
  serve                 run the service (default configuration: PGlite in DATA_DIR, offline engine)
  migrate               apply database migrations and exit
  catalogue check [dir] validate every catalogue file (or those in dir) and print counts
  dev bootstrap --email E   a developer, a key and a £10 embedded top-up; prints the key
  prices schedule --kind K --pence P --effective DATE   a new price, 30+ days ahead; emails developers
  changelog post --title T --body B                     publish a changelog post; emails developers
  endpoint withdraw --endpoint E --reason R [--refund]  answer 410 on E everywhere (align, questions, genie_chat, chat);
                                                        --refund returns every developer's unspent balance
  endpoint restore --endpoint E                         undo a withdrawal
  account suspend --email E                             end an account's access (breach); keys stop at once
  usage rollup                                          run this five-minute usage rollup now
On the embedded PGlite database, run operator commands while the server is stopped.`;

type OperatorCommand = (runtime: Runtime, flags: Map<string, string>) => Promise<OperatorOutcome>;
const operatorCommands: Record<string, OperatorCommand> = {
  "prices schedule": schedulePrice,
  "changelog post": postChangelog,
  "endpoint withdraw": withdrawEndpoint,
  "endpoint restore": restoreEndpoint,
  "account suspend": suspendAccount,
  "usage rollup": (runtime) => rollUpUsage(runtime),
};

async function operate(config: Config, run: OperatorCommand): Promise<number> {
  const runtime = await createRuntime(config);
  try {
    const outcome = await run(runtime, parseFlags(rest.slice(1)));
    if (!outcome.ok) {
      process.stderr.write(`syllabi: ${outcome.reason}\n`);
      return 1;
    }
    outcome.lines.forEach(print);
    return 0;
  } finally {
    await runtime.close();
  }
}

/** The composition root: the only place that reads the environment (besides cli.ts's early start of PGlite) and handles signals. */
async function serve(config: Config, earlyPglite: EarlyPglite | null): Promise<number> {
  const startedAt = performance.now();
  // A ref'd timer until the server listens. When start-up is waiting only on V8's own background threads (PGlite's
  // WebAssembly compiling), libuv has nothing to wait for, and Node then blocks until every background task is done
  // (optimising compiles of the hottest WebAssembly included) before it runs anything else, even a file read that
  // has already completed. Traced: waits of 0.2-0.7 s while the OpenAPI and docs plugins registered.
  const keepAlive = setInterval(() => {}, 60_000);
  let runtime: Runtime;
  let address: string;
  try {
    runtime = await createRuntime(config, { earlyPglite });
    address = await runtime.app.listen({ port: config.PORT, host: config.HOST });
  } finally {
    clearInterval(keepAlive);
  }
  const base = config.PUBLIC_URL ?? address;
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(2);
  print(`Syllabi is running (${runtime.storage.driver}, started in ${seconds} s)`);
  print(`  portal   ${base}/`);
  print(`  API      ${base}/api/v1`);
  print(`  docs     ${base}/docs`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    runtime.app.log.info({ signal }, "shutting down: finishing in-flight requests and streams");
    await runtime.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  return new Promise<number>(() => {});
}

async function migrate(config: Config): Promise<number> {
  const storage = await openStorage(
    config.DATABASE_URL
      ? { driver: "postgres", url: config.DATABASE_URL, poolSize: 2 }
      : { driver: "pglite", dataDir: path.resolve(config.DATA_DIR) },
  );
  try {
    await storage.migrate();
    print(`migrations applied (${storage.driver})`);
    return 0;
  } finally {
    await storage.close();
  }
}

async function bootstrap(config: Config): Promise<number> {
  const emailIndex = rest.indexOf("--email");
  const email = emailIndex >= 0 ? rest[emailIndex + 1] : undefined;
  if (!email) {
    print("usage: syllabi dev bootstrap --email E");
    return 2;
  }
  const runtime = await createRuntime(config);
  try {
    const outcome = await devBootstrap(runtime, email);
    if (!outcome.ok) {
      process.stderr.write(`syllabi: ${outcome.reason}\n`);
      return 1;
    }
    print(`account ${outcome.accountId}, balance ${outcome.balancePence}p`);
    print(outcome.key);
    return 0;
  } finally {
    await runtime.close();
  }
}

/**
 * Runs the command named on the command line; its exit code (`serve` never returns). `earlyPglite`: the embedded
 * database the entry point started opening for `serve`.
 */
export async function main(earlyPglite: EarlyPglite | null = null): Promise<number> {
  const words = `${command ?? ""} ${rest[0] ?? ""}`.trim();
  if (words === "catalogue check") return runCatalogueCheck(print, rest[1]);
  const isBootstrap = words === "dev bootstrap";
  const operatorCommand = operatorCommands[words];
  if (command !== "serve" && command !== "migrate" && !isBootstrap && !operatorCommand) {
    print(usage);
    return command === undefined || command === "help" ? 0 : 2;
  }
  let config: Config;
  try {
    config = parseConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`syllabi: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  if (isBootstrap) return bootstrap(config);
  if (operatorCommand) return operate(config, operatorCommand);
  return command === "serve" ? serve(config, earlyPglite) : migrate(config);
}
