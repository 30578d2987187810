import { readFileSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type pg from "pg";
import { PgliteThread } from "./pglite-thread.ts";
import * as schema from "./schema.ts";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Storage {
  readonly driver: "pglite" | "postgres";
  readonly db: Database;
  /** Runs the SQL migrations; safe when several instances start at once. */
  migrate(): Promise<void>;
  /** A cheap round trip, for readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** The underlying pool, when on PostgreSQL (LISTEN/NOTIFY needs its own client). */
  readonly pool: pg.Pool | null;
}

export type StorageOptions =
  | {
      driver: "pglite";
      dataDir: string | null;
      /** The client already opening on dataDir (see EarlyPglite), adopted instead of opening another. */
      opening?: Promise<PgliteThread> | undefined;
    }
  | { driver: "postgres"; url: string; poolSize: number };

export const migrationsFolder = path.resolve(import.meta.dirname, "../../drizzle");

/** Socket errors and PostgreSQL's connection-exception, shutdown and too-many-connections SQLSTATEs. */
const unavailableCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "EAI_AGAIN",
  "57P01",
  "57P02",
  "57P03",
  "53300",
]);
const unavailableMessages =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection closed|Cannot use a pool after calling end/i;

/**
 * Whether an error (or anything in its `cause` chain, where Drizzle puts the driver's error) means the database
 * could not be reached, as opposed to a query that failed: the first is a 503 and worth retrying, the second a bug.
 */
export function isStorageUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (unavailableCodes.has(code) || code.startsWith("08"))) return true;
    if (unavailableMessages.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}
/**
 * Whether every migration in the folder is already applied, in one query: drizzle's own test (the newest row of its
 * migrations table against each migration's time in the journal), without the two CREATE ... IF NOT EXISTS and the
 * empty transaction it runs to find nothing to do. Migrations only ever move forward, so a database that passes
 * needs no lock either; any other answer (the table not there yet included) goes through drizzle's migrator.
 */
async function allMigrationsApplied(
  query: (text: string) => Promise<{ rows: { created_at?: unknown }[] }>,
): Promise<boolean> {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
    entries: { when: number }[];
  };
  const newest = Math.max(...journal.entries.map((entry) => entry.when));
  try {
    const { rows } = await query(
      'select created_at from "drizzle"."__drizzle_migrations" order by created_at desc limit 1',
    );
    return rows.length > 0 && Number(rows[0]!.created_at) >= newest;
  } catch {
    return false;
  }
}

/** Any constant shared by every instance; serialises concurrent migrations. */
const migrationLockId = 7_401_553_201;

export async function openStorage(options: StorageOptions): Promise<Storage> {
  if (options.driver === "pglite") {
    // PGlite on its own thread (see PgliteThread); drizzle's driver uses only the query and transaction it has.
    const client = await (options.opening ?? PgliteThread.open(options.dataDir));
    const db = drizzlePglite(client as unknown as PGlite, { schema }) as unknown as Database;
    return {
      driver: "pglite",
      db,
      pool: null,
      migrate: async () => {
        if (await allMigrationsApplied((text) => client.query(text))) return;
        await migratePglite(drizzlePglite(client as unknown as PGlite, { schema }), { migrationsFolder });
      },
      ping: async () => {
        await client.query("select 1");
      },
      close: () => client.close(),
    };
  }

  // Loaded only on this path: an instance on PGlite never needs node-postgres, and importing it costs start-up.
  const [{ default: postgres }, { drizzle: drizzleNodePostgres }, { migrate: migrateNodePostgres }] =
    await Promise.all([
      import("pg"),
      import("drizzle-orm/node-postgres"),
      import("drizzle-orm/node-postgres/migrator"),
    ]);
  const pool = new postgres.Pool({
    connectionString: options.url,
    max: options.poolSize,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection must not crash the process; the next query reports it.
  pool.on("error", () => {});
  const db = drizzleNodePostgres(pool, { schema }) as unknown as Database;
  return {
    driver: "postgres",
    db,
    pool,
    migrate: async () => {
      if (await allMigrationsApplied((text) => pool.query(text))) return;
      const client = await pool.connect();
      try {
        await client.query("select pg_advisory_lock($1)", [migrationLockId]);
        try {
          await migrateNodePostgres(drizzleNodePostgres(client, { schema }), { migrationsFolder });
        } finally {
          await client.query("select pg_advisory_unlock($1)", [migrationLockId]);
        }
      } finally {
        client.release();
      }
    },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => pool.end(),
  };
}
