import { mkdirSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import type { PgliteRequest, PgliteResponse, PgliteWorkerData, SerializedError } from "./pglite-protocol.ts";
import { templateFor } from "./pglite-template.ts";

/**
 * The thread PGlite runs on (see PgliteThread): PostgreSQL's WebAssembly executes here, so the service's thread
 * only posts statements and reads their rows. Each statement goes to PGlite exactly as if it were called in
 * process, so PGlite still serialises them and holds the database for a transaction until it ends, and syncs its
 * files after each statement or commit as it does anywhere.
 */

const port = parentPort!;
const { dataDir } = workerData as PgliteWorkerData;

const post = (response: PgliteResponse) => port.postMessage(response);

function serializeError(error: unknown, depth = 0): SerializedError {
  if (!(error instanceof Error))
    return { name: "Error", message: String(error), stack: undefined, fields: {}, cause: undefined };
  // PostgreSQL's fields (code, detail, constraint, …) are own properties; PGlite also attaches the statement's
  // options, functions included, which cannot cross, and its parameters, which the caller already has.
  const fields: SerializedError["fields"] = {};
  for (const [name, value] of Object.entries(error)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      fields[name] = value;
  }
  return {
    name: error.name,
    message: error.message,
    stack: error.stack,
    fields,
    cause: error.cause !== undefined && depth < 4 ? serializeError(error.cause, depth + 1) : undefined,
  };
}

/** Parsers that keep a type's text as it is, one set per list of types asked for (drizzle always asks the same). */
const keepText = (text: string) => text;
const parsersByTypes = new Map<string, Record<number, (text: string) => string>>();
function parsersKeepingText(types: number[]): Record<number, (text: string) => string> {
  const key = types.join(",");
  let parsers = parsersByTypes.get(key);
  if (!parsers) {
    parsers = Object.fromEntries(types.map((type) => [type, keepText]));
    parsersByTypes.set(key, parsers);
  }
  return parsers;
}

interface OpenTransaction {
  /** PGlite's transaction, once BEGIN has run; rejects if it never does. */
  readonly ready: Promise<Transaction>;
  /** Ends it: true commits, false rolls back. */
  readonly end: (commit: boolean) => void;
  /** Settles when PGlite has committed or rolled back. */
  readonly ended: Promise<void>;
}

const rolledBack = Symbol("rolled back");

async function open(): Promise<PGlite> {
  if (!dataDir) {
    const client = new PGlite();
    await client.waitReady;
    return client;
  }
  const template = await templateFor(dataDir);
  mkdirSync(dataDir, { recursive: true });
  const client = new PGlite(dataDir, template ? { loadDataDir: template } : {});
  await client.waitReady;
  return client;
}

function serve(client: PGlite): void {
  const transactions = new Map<number, OpenTransaction>();

  const begin = (transactionId: number) => {
    let opened!: (transaction: Transaction) => void;
    let failed!: (error: unknown) => void;
    let end!: (commit: boolean) => void;
    const ready = new Promise<Transaction>((resolve, reject) => {
      opened = resolve;
      failed = reject;
    });
    const decided = new Promise<boolean>((resolve) => (end = resolve));
    const ended = client
      .transaction(async (transaction) => {
        opened(transaction);
        if (!(await decided)) throw rolledBack;
      })
      .catch((error: unknown) => {
        if (error === rolledBack) return;
        failed(error);
        throw error;
      });
    // Awaited by the end message; a failure meanwhile reaches the statements through `ready`.
    ended.catch(() => {});
    ready.catch(() => {});
    transactions.set(transactionId, { ready, end, ended });
  };

  const run = async (request: Extract<PgliteRequest, { kind: "query" }>) => {
    const options = {
      ...(request.rowMode ? { rowMode: request.rowMode } : {}),
      ...(request.textTypes ? { parsers: parsersKeepingText(request.textTypes) } : {}),
    };
    const open = request.transactionId === undefined ? undefined : transactions.get(request.transactionId);
    if (request.transactionId !== undefined && !open) throw new Error("Transaction is closed");
    const runner = open ? await open.ready : client;
    const { rows, affectedRows, fields } = await runner.query(request.sql, request.params, options);
    return {
      rows,
      affectedRows,
      fields: fields.map(({ name, dataTypeID }) => ({ name, dataTypeID })),
    };
  };

  const answer = (id: number, work: Promise<PgliteResponse & { kind: "result" }>) =>
    work.then(post, (error: unknown) => post({ kind: "error", id, error: serializeError(error) }));

  port.on("message", (request: PgliteRequest) => {
    switch (request.kind) {
      case "query":
        void answer(
          request.id,
          run(request).then((result) => ({ kind: "result", id: request.id, result })),
        );
        return;
      case "begin":
        begin(request.transactionId);
        return;
      case "end": {
        const open = transactions.get(request.transactionId);
        transactions.delete(request.transactionId);
        if (!open) {
          post({ kind: "error", id: request.id, error: serializeError(new Error("Transaction is closed")) });
          return;
        }
        open.end(request.commit);
        void answer(
          request.id,
          open.ended.then(() => ({ kind: "result", id: request.id, result: null })),
        );
        return;
      }
      case "close":
        void answer(
          request.id,
          client.close().then(() => ({ kind: "result", id: request.id, result: null })),
        ).then(() => port.close());
        return;
    }
  });
}

try {
  serve(await open());
  post({ kind: "opened" });
} catch (error) {
  post({ kind: "failed-to-open", error: serializeError(error) });
  port.close();
}
