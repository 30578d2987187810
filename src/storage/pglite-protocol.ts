/**
 * The messages between the service and the thread that runs PGlite (pglite-thread.ts and pglite-worker.ts). Types
 * only: both sides import it, and the entry loads the thread's side before anything heavy.
 */

export type RowMode = "array" | "object";

/** What opens PGlite on the thread: a data directory, or null for a cluster in memory. */
export interface PgliteWorkerData {
  dataDir: string | null;
}

export type PgliteRequest =
  | {
      kind: "query";
      id: number;
      sql: string;
      params: unknown[] | undefined;
      rowMode: RowMode | undefined;
      /** Type OIDs whose text is kept as it is instead of parsed (what drizzle asks for timestamps and dates). */
      textTypes: number[] | undefined;
      /** The transaction the statement runs in; none for a statement of its own. */
      transactionId: number | undefined;
    }
  /** Opens a transaction (PGlite's: it holds the database until it ends); answered only by a failing statement. */
  | { kind: "begin"; transactionId: number }
  /** Commits or rolls back; answered once the transaction has ended. */
  | { kind: "end"; id: number; transactionId: number; commit: boolean }
  | { kind: "close"; id: number };

export interface QueryResult {
  rows: unknown[];
  affectedRows: number | undefined;
  fields: { name: string; dataTypeID: number }[];
}

/** An error as it crossed the thread: PostgreSQL's fields (`code`, `detail`, `constraint` …) kept. */
export interface SerializedError {
  name: string;
  message: string;
  stack: string | undefined;
  fields: Record<string, string | number | boolean>;
  cause: SerializedError | undefined;
}

export type PgliteResponse =
  | { kind: "opened" }
  | { kind: "failed-to-open"; error: SerializedError }
  | { kind: "result"; id: number; result: QueryResult | null }
  | { kind: "error"; id: number; error: SerializedError };
