import { and, eq, gt, sql } from "drizzle-orm";
import type { Database } from "../storage/database.ts";
import { accounts, platformSessions } from "../storage/schema.ts";
import { isUniqueViolation } from "../keys/key-store.ts";

export type AccountRow = typeof accounts.$inferSelect;

export class AccountStore {
  constructor(private readonly db: Database) {}

  async insert(account: typeof accounts.$inferInsert): Promise<AccountRow | "email_taken"> {
    try {
      const rows = await this.db.insert(accounts).values(account).returning();
      return rows[0]!;
    } catch (error) {
      if (isUniqueViolation(error)) return "email_taken";
      throw error;
    }
  }

  async byId(id: string): Promise<AccountRow | null> {
    const rows = await this.db.select().from(accounts).where(eq(accounts.id, id)).limit(1);
    return rows[0] ?? null;
  }

  async byEmail(email: string): Promise<AccountRow | null> {
    const rows = await this.db
      .select()
      .from(accounts)
      .where(sql`lower(${accounts.email}) = ${email.toLowerCase()}`)
      .limit(1);
    return rows[0] ?? null;
  }

  async setStatus(id: string, status: "active" | "suspended" | "closed"): Promise<void> {
    await this.db.update(accounts).set({ status }).where(eq(accounts.id, id));
  }

  async createSession(session: { tokenHash: string; accountId: string; expiresAt: Date }): Promise<void> {
    await this.db.insert(platformSessions).values(session);
  }

  async accountForSession(tokenHash: string, now: Date): Promise<AccountRow | null> {
    const rows = await this.db
      .select({ account: accounts })
      .from(platformSessions)
      .innerJoin(accounts, eq(accounts.id, platformSessions.accountId))
      .where(and(eq(platformSessions.tokenHash, tokenHash), gt(platformSessions.expiresAt, now)))
      .limit(1);
    return rows[0]?.account ?? null;
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.db.delete(platformSessions).where(eq(platformSessions.tokenHash, tokenHash));
  }

  async deleteSessionsOf(accountId: string): Promise<void> {
    await this.db.delete(platformSessions).where(eq(platformSessions.accountId, accountId));
  }
}
