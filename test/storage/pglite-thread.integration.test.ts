import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isUniqueViolation } from "../../src/keys/key-store.ts";
import { isStorageUnavailable, openStorage } from "../../src/storage/database.ts";
import { PgliteThread } from "../../src/storage/pglite-thread.ts";
import { accounts } from "../../src/storage/schema.ts";

/** PGlite on its own thread, as the service uses it: real PGlite, in memory unless a test needs a directory. */
describe("PGlite on its own thread", () => {
  let thread: PgliteThread;

  beforeAll(async () => {
    thread = await PgliteThread.open(null);
    await thread.query("create table items (id int primary key, label text not null, at timestamptz)");
  });
  afterAll(() => thread.close());

  it("brings PostgreSQL's errors back with their SQLSTATE and fields", async () => {
    await thread.query("insert into items (id, label) values (1, 'one')");
    const error = await thread.query("insert into items (id, label) values (1, 'again')").catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: "23505", constraint: "items_pkey", table: "items" });
    expect(error.message).toContain("duplicate key");
    expect(isUniqueViolation(error)).toBe(true);
    expect(isStorageUnavailable(error)).toBe(false);
  });

  it("rolls a transaction back when its work throws, and rethrows the work's own error", async () => {
    const thrown = new Error("changed my mind");
    const outcome = await thread
      .transaction(async (transaction) => {
        await transaction.query("insert into items (id, label) values (2, 'two')");
        throw thrown;
      })
      .catch((e) => e);
    expect(outcome).toBe(thrown);
    expect((await thread.query("select id from items where id = 2")).rows).toEqual([]);
  });

  it("rolls back a transaction whose statement failed, and stays usable", async () => {
    const error = await thread
      .transaction(async (transaction) => {
        await transaction.query("insert into items (id, label) values (3, 'three')");
        await transaction.query("insert into items (id, label) values (1, 'duplicate')");
      })
      .catch((e) => e);
    expect(error).toMatchObject({ code: "23505" });
    expect((await thread.query("select id from items where id = 3")).rows).toEqual([]);
    expect((await thread.query("select count(*)::int as n from items")).rows).toEqual([{ n: 1 }]);
  });

  it("holds the database for an open transaction: other statements and transactions wait for its end", async () => {
    const order: string[] = [];
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    let inside!: () => void;
    const begun = new Promise<void>((resolve) => (inside = resolve));
    const first = thread.transaction(async (transaction) => {
      await transaction.query("insert into items (id, label) values (10, 'first')");
      inside();
      await gate;
      order.push("first commits");
    });
    await begun;
    const reading = thread
      .query<{ n: number }>("select count(*)::int as n from items where id >= 10")
      .then((result) => {
        order.push("read");
        return result.rows[0]!.n;
      });
    const second = thread.transaction(async (transaction) => {
      order.push("second begins");
      const { rows } = await transaction.query<{ n: number }>(
        "select count(*)::int as n from items where id >= 10",
      );
      await transaction.query("insert into items (id, label) values (11, 'second')");
      return rows[0]!.n;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).toEqual(["second begins"]);
    finish();
    await first;
    expect(await reading).toBe(1);
    // The second's callback began at once, but its statements ran only after the first had committed.
    expect(await second).toBe(1);
    expect(order).toEqual(["second begins", "first commits", "read"]);
  });

  it("keeps drizzle's timestamps as text and refuses a parser it cannot run on the thread", async () => {
    await thread.query("insert into items (id, label, at) values (20, 'dated', '2026-01-05T09:00:00Z')");
    const parsed = await thread.query<{ at: unknown }>("select at from items where id = 20");
    expect(parsed.rows[0]!.at).toEqual(new Date("2026-01-05T09:00:00Z"));
    const kept = await thread.query<unknown[]>("select at from items where id = 20", [], {
      rowMode: "array",
      parsers: { 1184: (text) => text },
    });
    expect(kept.rows).toEqual([["2026-01-05 09:00:00+00"]]);
    await expect(
      thread.query("select at from items where id = 20", [], { parsers: { 1184: (text) => new Date(text) } }),
    ).rejects.toThrow(/no other parser/);
  });

  it("answers with a lost connection, a 503, once closed", async () => {
    const closing = await PgliteThread.open(null);
    await closing.close();
    const error = await closing.query("select 1").catch((e) => e);
    expect(isStorageUnavailable(error)).toBe(true);
  });
});

describe("PGlite on its own thread, on a data directory", () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "syllabi-pglite-thread-"));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it("migrates through drizzle, and what was committed is there after a reopen", async () => {
    const first = await openStorage({ driver: "pglite", dataDir });
    await first.migrate();
    const id = "acct_thread_test";
    await first.db.transaction(async (transaction) => {
      await transaction.insert(accounts).values({
        id,
        email: "thread@example.test",
        name: "Thread",
        useCase: "Testing",
        passwordHash: "x",
        termsAcceptedAt: new Date("2026-01-05T09:00:00Z"),
      });
      // A nested transaction is a savepoint; rolling it back keeps the outer work.
      await transaction
        .transaction(async (nested) => {
          await nested.update(accounts).set({ name: "Renamed" }).where(eq(accounts.id, id));
          nested.rollback();
        })
        .catch(() => {});
    });
    await first.close();

    const second = await openStorage({ driver: "pglite", dataDir });
    await second.migrate();
    const [row] = await second.db
      .select({ name: accounts.name, termsAcceptedAt: accounts.termsAcceptedAt })
      .from(accounts)
      .where(eq(accounts.id, id));
    expect(row).toEqual({ name: "Thread", termsAcceptedAt: new Date("2026-01-05T09:00:00Z") });
    expect(await second.db.execute(sql`select 1 as one`)).toMatchObject({ rows: [{ one: 1 }] });
    await second.close();
  });
});
