import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseFlags, postChangelog } from "../../src/operator/operator-commands.ts";
import { mailOutbox } from "../../src/storage/schema.ts";
import { fundedDeveloper } from "../support/funding.ts";
import { startTestApp, type TestApp } from "../support/harness.ts";

/**
 * With SMTP_URL set, mail goes out over SMTP (nodemailer) instead of into the outbox. The stand-in is a real SMTP
 * server (smtp-server, from the nodemailer project) on a local port, so the whole conversation — EHLO, MAIL FROM,
 * RCPT TO, DATA — happens as it would with a provider.
 */
interface Received {
  from: string;
  to: string[];
  raw: string;
}

let smtp: SMTPServer;
let app: TestApp;
const received: Received[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const { port } = smtp.server.address() as AddressInfo;
  app = await startTestApp({
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    MAIL_FROM: "Syllabi <no-reply@syllabi.test>",
  });
});
afterAll(async () => {
  await app.close();
  await new Promise<void>((resolve) => smtp.close(resolve));
});

describe("mail over SMTP", () => {
  it("delivers a notice to the developer over SMTP and keeps nothing in the outbox", async () => {
    const developer = await fundedDeveloper(app);
    const outcome = await postChangelog(
      app.runtime,
      parseFlags(["--title", "Faster question sets", "--body", "Question sets now arrive in half the time."]),
    );
    expect(outcome.ok).toBe(true);

    const mine = received.filter((message) => message.to.includes(developer.email));
    expect(mine).toHaveLength(1);
    expect(mine[0]!.from).toBe("no-reply@syllabi.test");
    // Plain ASCII, so the message needs no MIME decoding: headers, a blank line, the text.
    const [head = "", body = ""] = mine[0]!.raw.split("\r\n\r\n");
    expect(head).toMatch(/^Subject: Syllabi changelog: Faster question sets$/m);
    expect(head).toMatch(/^From: Syllabi <no-reply@syllabi\.test>$/m);
    expect(body.trim()).toBe("Question sets now arrive in half the time.");

    const stored = await app.runtime.storage.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.accountId, developer.accountId));
    expect(stored).toEqual([]);
  });
});
