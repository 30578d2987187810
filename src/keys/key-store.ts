import { and, asc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Database } from "../storage/database.ts";
import { accounts, apiKeys } from "../storage/schema.ts";
import type { Scope } from "./scopes.ts";

export interface KeyRecord {
  id: string;
  name: string;
  scopes: Scope[];
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** What a request needs to know about the key it carried and its account. */
export interface KeyPrincipal {
  keyId: string;
  accountId: string;
  scopes: readonly Scope[];
  revoked: boolean;
  accountStatus: "active" | "suspended" | "closed";
  dataUnlocked: boolean;
}

export const maxLiveKeys = 5;

export class KeyStore {
  constructor(private readonly db: Database) {}

  async findPrincipal(secretHash: string): Promise<KeyPrincipal | null> {
    const rows = await this.db
      .select({
        keyId: apiKeys.id,
        accountId: apiKeys.accountId,
        scopes: apiKeys.scopes,
        revokedAt: apiKeys.revokedAt,
        accountStatus: accounts.status,
        dataUnlockedAt: accounts.dataUnlockedAt,
      })
      .from(apiKeys)
      .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
      .where(eq(apiKeys.secretHash, secretHash))
      .limit(1);
    const row = rows[0];
    if (!row) return null;
    return {
      keyId: row.keyId,
      accountId: row.accountId,
      scopes: row.scopes as Scope[],
      revoked: row.revokedAt !== null,
      accountStatus: row.accountStatus as KeyPrincipal["accountStatus"],
      dataUnlocked: row.dataUnlockedAt !== null,
    };
  }

  async list(accountId: string): Promise<KeyRecord[]> {
    const rows = await this.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.accountId, accountId))
      .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      scopes: row.scopes as Scope[],
      prefix: row.prefix,
      createdAt: row.createdAt,
      lastUsedAt: row.lastUsedAt,
      revokedAt: row.revokedAt,
    }));
  }

  async countLive(accountId: string): Promise<number> {
    const rows = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(apiKeys)
      .where(and(eq(apiKeys.accountId, accountId), isNotNull(apiKeys.liveSlot)));
    return rows[0]?.count ?? 0;
  }

  /**
   * Takes the lowest free live slot (1–5). The unique (account, slot) index means two parallel creations can
   * never make a sixth live key: the loser sees a unique violation and tries the next slot.
   */
  async insertLive(key: {
    id: string;
    accountId: string;
    name: string;
    scopes: Scope[];
    prefix: string;
    secretHash: string;
    createdAt: Date;
  }): Promise<KeyRecord | "limit_reached"> {
    for (let attempt = 0; attempt < maxLiveKeys + 1; attempt += 1) {
      const used = await this.db
        .select({ slot: apiKeys.liveSlot })
        .from(apiKeys)
        .where(and(eq(apiKeys.accountId, key.accountId), isNotNull(apiKeys.liveSlot)));
      const taken = new Set(used.map((row) => row.slot));
      const free = [1, 2, 3, 4, 5].find((slot) => !taken.has(slot));
      if (free === undefined) return "limit_reached";
      try {
        await this.db.insert(apiKeys).values({ ...key, liveSlot: free });
        return { ...key, lastUsedAt: null, revokedAt: null };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    }
    return "limit_reached";
  }

  async revoke(accountId: string, keyId: string, at: Date): Promise<KeyRecord | null> {
    await this.db
      .update(apiKeys)
      .set({ revokedAt: at, liveSlot: null })
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)));
    const rows = await this.list(accountId);
    return rows.find((row) => row.id === keyId) ?? null;
  }

  async revokeAll(accountId: string, at: Date): Promise<string[]> {
    const rows = await this.db
      .update(apiKeys)
      .set({ revokedAt: at, liveSlot: null })
      .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id });
    return rows.map((row) => row.id);
  }

  async touch(keyId: string, at: Date): Promise<void> {
    await this.db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, keyId));
  }
}

export function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth += 1) {
    if ((current as { code?: string }).code === "23505") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
