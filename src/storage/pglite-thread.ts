import { Worker } from "node:worker_threads";
import type {
  PgliteRequest,
  PgliteResponse,
  PgliteWorkerData,
  QueryResult,
  RowMode,
  SerializedError,
} from "./pglite-protocol.ts";

/** The options drizzle's PGlite driver passes with a statement. */
export interface QueryOptions {
  rowMode?: RowMode;
  /** By type OID; only parsers that keep the text as it is (drizzle's, for dates and times) can cross the thread. */
  parsers?: Record<number, (text: string, typeId: number) => unknown>;
}

/** What drizzle's PGlite driver and the migrator use of a PGlite client, and of the transaction it hands out. */
export interface PgliteQueries {
  query<Row = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<QueryResult & { rows: Row[] }>;
}

// Run from TypeScript (tsx, vitest), the thread's entry registers tsx, then loads pglite-worker.ts; bundled, it is
// the bundle's pglite-worker.mjs beside the bundle (scripts/build.mjs).
const workerFile = new URL(
  import.meta.url.endsWith(".ts") ? "./pglite-worker-from-typescript.mjs" : "./pglite-worker.mjs",
  import.meta.url,
);

/** A thread that stopped is a lost connection to the database: 08006, which callers answer with a 503. */
const threadStopped = (why: string) =>
  Object.assign(new Error(`PGlite's thread stopped (${why}): Connection closed`), { code: "08006" });

function deserializeError(serialized: SerializedError): Error {
  const error = new Error(
    serialized.message,
    serialized.cause && { cause: deserializeError(serialized.cause) },
  );
  error.name = serialized.name;
  if (serialized.stack) error.stack = `${serialized.stack}\n    at (PGlite's thread)`;
  return Object.assign(error, serialized.fields);
}

const probe = "2026-01-01 00:00:00+00";

/** The type OIDs whose parser keeps the text; refuses any other parser, which could not run on the thread. */
function textTypesOf(parsers: QueryOptions["parsers"]): number[] | undefined {
  if (!parsers) return undefined;
  const types: number[] = [];
  for (const [type, parse] of Object.entries(parsers)) {
    if (parse(probe, Number(type)) !== probe)
      throw new Error(
        `PGlite's thread keeps type ${type} as text or parses it itself; no other parser can cross`,
      );
    types.push(Number(type));
  }
  return types;
}

/**
 * PGlite on a worker thread. PGlite runs PostgreSQL's WebAssembly on the thread that calls it: in process, each
 * statement of a paid call's reservation and commit blocked the service's thread for milliseconds, in the middle
 * of reading the model's reply. Here the service's thread only posts each statement and reads its rows; PGlite,
 * on its own thread, still serialises statements and holds the database for a whole transaction, as it does in
 * process. A transaction's callback runs here; its statements run on the thread, inside the transaction PGlite
 * holds open until the callback settles (COMMIT) or throws (ROLLBACK). Errors come back with PostgreSQL's fields
 * (`code`, `constraint` …).
 *
 * The thread keeps the process alive only while a statement is waiting for it, like a socket with a request out.
 */
export class PgliteThread implements PgliteQueries {
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  private nextId = 1;
  private stopped: Error | null = null;
  private closing: Promise<void> | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on("message", (response: PgliteResponse) => {
      if (response.kind !== "result" && response.kind !== "error") return;
      const waiting = this.pending.get(response.id);
      if (!waiting) return;
      this.pending.delete(response.id);
      if (this.pending.size === 0) worker.unref();
      if (response.kind === "result") waiting.resolve(response.result);
      else waiting.reject(deserializeError(response.error));
    });
    worker.on("error", (error) => this.stop(threadStopped(error.message)));
    worker.on("exit", (code) => this.stop(threadStopped(`exit code ${code}`)));
  }

  /** Starts the thread and opens PGlite on `dataDir` (loading the migrated-cluster template into an empty one), or in memory. */
  static open(dataDir: string | null): Promise<PgliteThread> {
    const workerData: PgliteWorkerData = { dataDir };
    const worker = new Worker(workerFile, { workerData });
    return new Promise((resolve, reject) => {
      const settle = () => {
        worker.off("message", opening);
        worker.off("error", failed);
        worker.off("exit", exited);
      };
      const opening = (response: PgliteResponse) => {
        if (response.kind === "opened") {
          settle();
          worker.unref();
          resolve(new PgliteThread(worker));
        } else if (response.kind === "failed-to-open") {
          settle();
          // The thread ends on its own; nothing it reports afterwards can matter.
          worker.on("error", () => {});
          reject(deserializeError(response.error));
        }
      };
      const failed = (error: Error) => {
        settle();
        reject(error);
      };
      const exited = (code: number) => failed(threadStopped(`exit code ${code} while opening`));
      worker.on("message", opening);
      worker.on("error", failed);
      worker.on("exit", exited);
    });
  }

  query<Row = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<QueryResult & { rows: Row[] }> {
    return this.statement(sql, params, options, undefined);
  }

  /**
   * Runs `work` in one transaction: committed when it settles, rolled back (and its error rethrown) when it throws.
   * Transactions and statements queue behind an open transaction, as on PGlite itself.
   */
  async transaction<T>(work: (transaction: PgliteQueries) => Promise<T>): Promise<T> {
    const transactionId = this.nextId++;
    this.post({ kind: "begin", transactionId });
    let closed = false;
    const inTransaction: PgliteQueries = {
      query: <Row>(sql: string, params?: unknown[], options?: QueryOptions) =>
        closed
          ? Promise.reject(new Error("Transaction is closed"))
          : this.statement<Row>(sql, params, options, transactionId),
    };
    let result: T;
    try {
      result = await work(inTransaction);
    } catch (error) {
      closed = true;
      // The callback's error is the one worth reporting; a failed ROLLBACK leaves PGlite to end the transaction.
      await this.request({ kind: "end", id: this.nextId++, transactionId, commit: false }).catch(() => {});
      throw error;
    }
    closed = true;
    await this.request({ kind: "end", id: this.nextId++, transactionId, commit: true });
    return result;
  }

  /** Closes PGlite (which syncs its files) and ends the thread. */
  close(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.closing ??= (async () => {
      const exited = new Promise((resolve) => this.worker.once("exit", resolve));
      await this.request({ kind: "close", id: this.nextId++ });
      // Until the thread has exited, it is what the process is waiting for.
      this.worker.ref();
      await exited;
    })();
    return this.closing;
  }

  private statement<Row>(
    sql: string,
    params: unknown[] | undefined,
    options: QueryOptions | undefined,
    transactionId: number | undefined,
  ): Promise<QueryResult & { rows: Row[] }> {
    let textTypes: number[] | undefined;
    try {
      textTypes = textTypesOf(options?.parsers);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return this.request({
      kind: "query",
      id: this.nextId++,
      sql,
      params,
      rowMode: options?.rowMode,
      textTypes,
      transactionId,
    }) as Promise<QueryResult & { rows: Row[] }>;
  }

  private request(request: PgliteRequest & { id: number }): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(request.id, { resolve, reject });
      this.worker.postMessage(request);
    });
  }

  private post(request: PgliteRequest): void {
    if (!this.stopped) this.worker.postMessage(request);
  }

  private stop(error: Error): void {
    if (this.stopped) return;
    this.stopped = error;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
