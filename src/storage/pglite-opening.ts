import path from "node:path";
import { PgliteThread } from "./pglite-thread.ts";

/**
 * PGlite opening on a data directory before start-up needs it. Opening takes about a second: reading its
 * WebAssembly and data files, compiling the WebAssembly, then starting PostgreSQL on the directory, all on PGlite's
 * own thread (see PgliteThread). `syllabi serve` starts it before the rest of the service's code is even loaded,
 * and start-up adopts the client when it opens its storage: the two overlap instead of following each other. Only
 * the client is handed over: readiness still waits for it, the migrations and the rest. This module imports
 * nothing heavy, so that the entry can load it first.
 */
export class EarlyPglite {
  private client: Promise<PgliteThread> | null;

  private constructor(readonly dataDir: string) {
    this.client = PgliteThread.open(dataDir);
    // Awaited by whoever adopts or abandons it; a failure is reported there, not as an unhandled rejection.
    this.client.catch(() => {});
  }

  /**
   * Starts opening the directory the environment names (DATA_DIR, default ./.data), unless DATABASE_URL chooses
   * PostgreSQL: read as parseConfig reads them (an empty variable is unset). The configuration is still validated
   * in full afterwards; a client nobody adopts is closed by `abandon`.
   */
  static startFor(env: NodeJS.ProcessEnv): EarlyPglite | null {
    if (env.DATABASE_URL) return null;
    return new EarlyPglite(path.resolve(env.DATA_DIR || "./.data"));
  }

  /** The opening client, once, if it is for exactly `dataDir`; undefined otherwise. */
  adopt(dataDir: string): Promise<PgliteThread> | undefined {
    if (dataDir !== this.dataDir || !this.client) return undefined;
    const { client } = this;
    this.client = null;
    return client;
  }

  /** Closes the client unless it was adopted (start-up failed first, or the configuration was refused). */
  async abandon(): Promise<void> {
    const { client } = this;
    this.client = null;
    await client?.then((opened) => opened.close()).catch(() => {});
  }
}
