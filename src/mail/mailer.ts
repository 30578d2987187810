import { desc, eq } from "drizzle-orm";
import type { Transporter } from "nodemailer";
import { newId, type Clock } from "../shared/ids.ts";
import type { Database } from "../storage/database.ts";
import { mailOutbox } from "../storage/schema.ts";

export interface MailMessage {
  accountId: string | null;
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Without SMTP, mail is kept in a table the portal lists, so development needs no mail server. */
export class OutboxMailer implements Mailer {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  async send(message: MailMessage): Promise<void> {
    await this.db.insert(mailOutbox).values({ id: newId("msg"), createdAt: this.clock.now(), ...message });
  }
}

export class SmtpMailer implements Mailer {
  /** Made on the first message: the client library is loaded then, not at start-up. */
  private transport: Promise<Transporter> | null = null;

  constructor(
    private readonly smtpUrl: string,
    private readonly from: string,
  ) {}

  async send(message: MailMessage): Promise<void> {
    this.transport ??= import("nodemailer").then(({ default: nodemailer }) =>
      nodemailer.createTransport(this.smtpUrl),
    );
    const transport = await this.transport;
    await transport.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
    });
  }
}

export async function listOutbox(db: Database, accountId: string, limit = 50) {
  const rows = await db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.accountId, accountId))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(limit);
  return rows.map((row) => ({
    id: row.id,
    to: row.to,
    subject: row.subject,
    text: row.text,
    createdAt: row.createdAt.toISOString(),
  }));
}

/** Pence as "£10.00" for people. */
export function formatPounds(pence: number): string {
  return `£${(pence / 100).toFixed(2)}`;
}
