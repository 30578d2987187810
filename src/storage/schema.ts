import { sql } from "drizzle-orm";
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

/** A developer account: one prepaid balance, its keys and its sign-in. */
export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    organisation: text("organisation"),
    useCase: text("use_case").notNull(),
    passwordHash: text("password_hash").notNull(),
    /** active | suspended (ended by the service) | closed (by the developer) */
    status: text("status").notNull().default("active"),
    termsAcceptedAt: timestamp("terms_accepted_at", { withTimezone: true }).notNull(),
    /** Set once, by the first confirmed top-up; unlocks the data endpoints for good. */
    dataUnlockedAt: timestamp("data_unlocked_at", { withTimezone: true }),
    /** Kept in step with the ledger inside the same transaction; never negative. */
    balancePence: bigint("balance_pence", { mode: "number" }).notNull().default(0),
    lifetimeSpendPence: bigint("lifetime_spend_pence", { mode: "number" }).notNull().default(0),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("accounts_email_unique").on(sql`lower(${table.email})`),
    check("accounts_balance_not_negative", sql`${table.balancePence} >= 0`),
    check("accounts_status_known", sql`${table.status} in ('active', 'suspended', 'closed')`),
  ],
);

export const platformSessions = pgTable(
  "platform_sessions",
  {
    /** HMAC of the cookie value; the cookie itself is never stored. */
    tokenHash: text("token_hash").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("platform_sessions_account").on(table.accountId)],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    name: text("name").notNull(),
    scopes: text("scopes").array().notNull(),
    /** The first 8 random characters, for display. */
    prefix: text("prefix").notNull(),
    /** HMAC-SHA-256 of the whole secret under the server pepper. */
    secretHash: text("secret_hash").notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** 1..5 while live; null once revoked. The unique index makes a sixth live key impossible. */
    liveSlot: integer("live_slot"),
  },
  (table) => [
    uniqueIndex("api_keys_secret_hash_unique").on(table.secretHash),
    uniqueIndex("api_keys_live_slot_unique").on(table.accountId, table.liveSlot),
    index("api_keys_account").on(table.accountId),
    check("api_keys_live_slot_range", sql`${table.liveSlot} is null or ${table.liveSlot} between 1 and 5`),
  ],
);
