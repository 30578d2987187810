import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devBootstrap } from "../../src/billing/dev-bootstrap.ts";
import { changelogPosts } from "../../src/operator/operator-schema.ts";
import {
  parseFlags,
  postChangelog,
  restoreEndpoint,
  rollUpUsage,
  schedulePrice,
  suspendAccount,
  withdrawEndpoint,
} from "../../src/operator/operator-commands.ts";
import { billingSettings, mailOutbox } from "../../src/storage/schema.ts";
import { balanceOf, fundedDeveloper } from "../support/funding.ts";
import { api, startTestApp, type TestApp } from "../support/harness.ts";
import { createTestDatabase, postgresAvailable } from "../support/services.ts";

let app: TestApp;
const dayMs = 24 * 60 * 60 * 1000;
const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * dayMs).toISOString().slice(0, 10);
const flags = (...words: string[]) => parseFlags(words);
const alignBody = { subjectId: "aqa-gcse-biology-8461", text: "Osmosis and diffusion across membranes." };

async function mailTo(accountId: string) {
  return app.runtime.storage.db
    .select({ subject: mailOutbox.subject, text: mailOutbox.text })
    .from(mailOutbox)
    .where(eq(mailOutbox.accountId, accountId))
    .orderBy(desc(mailOutbox.createdAt));
}

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe("prices schedule", () => {
  it("refuses a change with under 30 days' notice and changes nothing", async () => {
    const developer = await fundedDeveloper(app);
    const before = await app.runtime.billing.priceBook.listAt(new Date(Date.now() + 20 * dayMs));
    const outcome = await schedulePrice(
      app.runtime,
      flags("--kind", "align", "--pence", "3", "--effective", isoDay(20)),
    );
    expect(outcome).toMatchObject({ ok: false, reason: expect.stringContaining("30 days") });
    expect(await app.runtime.billing.priceBook.listAt(new Date(Date.now() + 20 * dayMs))).toEqual(before);
    expect(await mailTo(developer.accountId)).toEqual([]);
  });

  it("schedules a price 30+ days ahead, leaves today's price alone and emails every developer", async () => {
    const developer = await fundedDeveloper(app);
    const effective = isoDay(45);
    const outcome = await schedulePrice(
      app.runtime,
      flags("--kind", "questions", "--pence", "10", "--effective", effective),
    );
    expect(outcome.ok).toBe(true);
    const later = await app.runtime.billing.priceBook.listAt(new Date(Date.now() + 46 * dayMs));
    const today = await app.runtime.billing.priceBook.listAt(new Date());
    expect(later.questionSetPence).toBe(10);
    expect(today.questionSetPence).toBe(8);
    const mail = await mailTo(developer.accountId);
    expect(mail[0]?.subject).toContain(`price change from ${effective}`);
    expect(mail[0]?.text).toContain("10p");

    // A call made now is still charged today's price.
    const tree = await api(app, developer.key, "GET", "/api/v1/subjects/aqa-gcse-biology-8461/tree");
    const subtopicId = (tree.json.topics as { subtopics: { id: string }[] }[])[0]!.subtopics[0]!.id;
    const generated = await api(app, developer.key, "POST", "/api/v1/questions/generate", {
      subtopicId,
      types: ["multiple_choice"],
      count: 2,
    });
    expect(generated.json.usage).toMatchObject({ chargedPence: 8 });
  });

  it("rejects an unknown kind or a malformed amount with a clear reason", async () => {
    const badKind = await schedulePrice(
      app.runtime,
      flags("--kind", "essays", "--pence", "3", "--effective", isoDay(40)),
    );
    const badPence = await schedulePrice(
      app.runtime,
      flags("--kind", "align", "--pence", "1.5", "--effective", isoDay(40)),
    );
    const badDate = await schedulePrice(
      app.runtime,
      flags("--kind", "align", "--pence", "2", "--effective", "soon"),
    );
    expect(badKind).toMatchObject({ ok: false, reason: expect.stringContaining("--kind") });
    expect(badPence).toMatchObject({ ok: false, reason: expect.stringContaining("--pence") });
    expect(badDate).toMatchObject({ ok: false, reason: expect.stringContaining("--effective") });
  });
});

describe("endpoint withdraw and restore", () => {
  it("answers 410 endpoint_withdrawn without charging, then serves again once restored", async () => {
    const developer = await fundedDeveloper(app);
    const withdrawn = await withdrawEndpoint(
      app.runtime,
      flags("--endpoint", "align", "--reason", "legal request"),
    );
    expect(withdrawn.ok).toBe(true);
    const refused = await api(app, developer.key, "POST", "/api/v1/align", alignBody);
    expect(refused.status).toBe(410);
    expect(refused.json.error).toBe("endpoint_withdrawn");
    expect(await balanceOf(app, developer.key)).toBe(1000);

    expect((await restoreEndpoint(app.runtime, flags("--endpoint", "align"))).ok).toBe(true);
    const served = await api(app, developer.key, "POST", "/api/v1/align", alignBody);
    expect(served.status).toBe(200);
    expect(await balanceOf(app, developer.key)).toBe(999);
  });

  it("with --refund, returns every developer's unspent balance through the provider and says why", async () => {
    // A real £10 top-up through the embedded provider, so there is a payment to refund.
    const developer = await devBootstrap(app.runtime, `refund-${Date.now()}@example.test`);
    if (!developer.ok) throw new Error(developer.reason);
    await api(app, developer.key, "POST", "/api/v1/align", alignBody);
    const outcome = await withdrawEndpoint(
      app.runtime,
      flags("--endpoint", "questions", "--reason", "permanent withdrawal", "--refund"),
    );
    expect(outcome.ok).toBe(true);
    expect(await balanceOf(app, developer.key)).toBe(0);
    const [notice] = await mailTo(developer.accountId);
    expect(notice?.subject).toContain("withdrawn questions");
    expect(notice?.text).toContain("9.99 GBP");
    await restoreEndpoint(app.runtime, flags("--endpoint", "questions"));
  });

  it("refuses an unknown endpoint or a missing reason", async () => {
    expect(
      await withdrawEndpoint(app.runtime, flags("--endpoint", "subjects", "--reason", "x y z")),
    ).toMatchObject({
      ok: false,
    });
    expect(await withdrawEndpoint(app.runtime, flags("--endpoint", "chat"))).toMatchObject({ ok: false });
    expect(app.runtime.withdrawals.isWithdrawn("chat")).toBe(false);
  });
});

describe("account suspend", () => {
  it("stops the account's keys at once with 403 account_suspended, and its automatic top-up", async () => {
    const developer = await fundedDeveloper(app);
    expect((await api(app, developer.key, "GET", "/api/v1/account")).status).toBe(200);
    // As if the developer had saved a card and switched automatic top-up on.
    await app.runtime.storage.db.insert(billingSettings).values({
      accountId: developer.accountId,
      autoTopUpEnabled: true,
      autoTopUpThresholdPence: 100,
      autoTopUpAmountPence: 1000,
    });
    const outcome = await suspendAccount(app.runtime, flags("--email", developer.email));
    expect(outcome.ok).toBe(true);
    const refused = await api(app, developer.key, "GET", "/api/v1/account");
    expect(refused.status).toBe(403);
    expect(refused.json.error).toBe("account_suspended");
    expect((await app.runtime.billing.autoTopUp.settings(developer.accountId)).enabled).toBe(false);
  });

  it("says so when no account has the email", async () => {
    expect(await suspendAccount(app.runtime, flags("--email", "nobody@example.com"))).toMatchObject({
      ok: false,
    });
  });
});

describe("changelog post and usage rollup", () => {
  it("stores the post and emails it to every developer", async () => {
    const developer = await fundedDeveloper(app);
    const outcome = await postChangelog(
      app.runtime,
      flags("--title", "Question sets in Welsh", "--body", "Question sets can now be requested in Welsh."),
    );
    expect(outcome.ok).toBe(true);
    const [post] = await app.runtime.storage.db
      .select()
      .from(changelogPosts)
      .orderBy(desc(changelogPosts.postedAt));
    expect(post?.title).toBe("Question sets in Welsh");
    expect((await mailTo(developer.accountId))[0]?.subject).toContain("Question sets in Welsh");
    const listed = (await (await fetch(`${app.baseUrl}/platform/api/changelog`)).json()) as {
      posts: { title: string; body: string }[];
    };
    expect(listed.posts[0]).toMatchObject({
      title: "Question sets in Welsh",
      body: "Question sets can now be requested in Welsh.",
    });
  });

  it("runs the current cycle once", async () => {
    const first = await rollUpUsage(app.runtime);
    const second = await rollUpUsage(app.runtime);
    expect(first).toEqual({ ok: true, lines: ["usage rolled up"] });
    expect(second).toEqual({ ok: true, lines: ["this cycle was already rolled up by another instance"] });
  });
});

describe("the syllabi command line", () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "syllabi-cli-"));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it("exits 1 with one clear line when a price change comes too soon", async () => {
    const bin = path.resolve(import.meta.dirname, "../../bin/syllabi.js");
    const run = promisify(execFile)(
      process.execPath,
      [bin, "prices", "schedule", "--kind", "align", "--pence", "2", "--effective", isoDay(3)],
      { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "silent" }, timeout: 120_000 },
    );
    const failure = (await run.then(
      () => null,
      (error: unknown) => error,
    )) as { code: number; stderr: string } | null;
    expect(failure?.code).toBe(1);
    expect(failure?.stderr.trim()).toMatch(/^syllabi: a price change needs 30 days' notice/);
  }, 150_000);
});

describe.skipIf(!postgresAvailable)("withdrawal across instances (PostgreSQL)", () => {
  it("is seen by a second instance within a second", async () => {
    const database = await createTestDatabase();
    const first = await startTestApp({ DATABASE_URL: database.url });
    const second = await startTestApp({ DATABASE_URL: database.url });
    try {
      await withdrawEndpoint(first.runtime, flags("--endpoint", "questions", "--reason", "safety review"));
      const deadline = Date.now() + 1000;
      while (!second.runtime.withdrawals.isWithdrawn("questions") && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(second.runtime.withdrawals.isWithdrawn("questions")).toBe(true);
    } finally {
      await first.close();
      await second.close();
      await database.drop();
    }
  });
});
