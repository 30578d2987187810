import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

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

/** Top-ups are lots: money in, consumed oldest first, so each one's unspent part is known for refunds. */
export const topUps = pgTable(
  "top_ups",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    amountPence: bigint("amount_pence", { mode: "number" }).notNull(),
    /** manual | subscription | automatic */
    method: text("method").notNull(),
    /** pending | confirmed | failed */
    status: text("status").notNull().default("pending"),
    checkoutId: text("checkout_id"),
    paymentId: text("payment_id"),
    /** The unspent part; falls as charges consume the lot and rises when a charge is returned. */
    remainingPence: bigint("remaining_pence", { mode: "number" }).notNull().default(0),
    refundedPence: bigint("refunded_pence", { mode: "number" }).notNull().default(0),
    /** Why a failed top-up failed (card_declined, expired …), for the portal. */
    failureReason: text("failure_reason"),
    /** For monthly top-ups: the provider's subscription and the period this lot pays for. */
    subscriptionId: text("subscription_id"),
    periodStart: timestamp("period_start", { withTimezone: true }),
    createdAt: createdAt(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
  },
  (table) => [
    index("top_ups_account").on(table.accountId, table.confirmedAt),
    uniqueIndex("top_ups_checkout_unique").on(table.checkoutId),
    uniqueIndex("top_ups_payment_unique").on(table.paymentId),
    // Each paid period of a monthly top-up is credited once, whatever the provider sends.
    uniqueIndex("top_ups_subscription_period_unique")
      .on(table.subscriptionId, table.periodStart)
      .where(sql`${table.subscriptionId} is not null`),
    // At most one automatic top-up in flight per account: the row that wins this index is the crossing's one.
    uniqueIndex("top_ups_automatic_in_flight")
      .on(table.accountId)
      .where(sql`${table.method} = 'automatic' and ${table.status} = 'pending'`),
    check("top_ups_remaining_not_negative", sql`${table.remainingPence} >= 0`),
  ],
);

/** A held price for one paid call: held → committed (a charge) or released (returned in full). */
export const reservations = pgTable(
  "reservations",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    keyId: text("key_id").notNull(),
    kind: text("kind").notNull(),
    /** The price in force when the call was made. */
    pricePence: bigint("price_pence", { mode: "number" }).notNull(),
    requestId: text("request_id").notNull(),
    status: text("status").notNull().default("held"),
    createdAt: createdAt(),
    settledAt: timestamp("settled_at", { withTimezone: true }),
  },
  (table) => [
    index("reservations_held").on(table.status, table.createdAt),
    index("reservations_account").on(table.accountId, table.createdAt),
    check("reservations_status_known", sql`${table.status} in ('held', 'committed', 'released')`),
  ],
);

/** Which lots a reservation drew on, so a returned charge goes back to the same lots. */
export const lotDraws = pgTable(
  "lot_draws",
  {
    reservationId: text("reservation_id")
      .notNull()
      .references(() => reservations.id),
    topUpId: text("top_up_id")
      .notNull()
      .references(() => topUps.id),
    pence: bigint("pence", { mode: "number" }).notNull(),
  },
  (table) => [uniqueIndex("lot_draws_unique").on(table.reservationId, table.topUpId)],
);

/** Append-only: the balance is always the sum of an account's entries. */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    /** topup_credit | charge | charge_returned | refund | adjustment */
    kind: text("kind").notNull(),
    /** Signed: credits positive, debits negative. */
    amountPence: bigint("amount_pence", { mode: "number" }).notNull(),
    topUpId: text("top_up_id"),
    reservationId: text("reservation_id"),
    note: text("note"),
    createdAt: createdAt(),
  },
  (table) => [
    index("ledger_entries_account").on(table.accountId, table.createdAt),
    // A reservation is charged once and returned at most once; a top-up is credited once.
    uniqueIndex("ledger_entries_reservation_once").on(table.reservationId, table.kind),
    uniqueIndex("ledger_entries_topup_credit_once")
      .on(table.topUpId)
      .where(sql`${table.kind} = 'topup_credit'`),
    check(
      "ledger_entries_kind_known",
      sql`${table.kind} in ('topup_credit', 'charge', 'charge_returned', 'refund', 'adjustment')`,
    ),
  ],
);

/** Prices by effective date; a call pays the row in force when it was made. */
export const prices = pgTable(
  "prices",
  {
    kind: text("kind").notNull(),
    pence: integer("pence").notNull(),
    effectiveAt: timestamp("effective_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("prices_kind_effective").on(table.kind, table.effectiveAt)],
);

/** Paid POSTs' Idempotency-Key records, kept 24 hours. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    accountId: text("account_id").notNull(),
    key: text("key").notNull(),
    bodyHash: text("body_hash").notNull(),
    /** in_flight | done */
    state: text("state").notNull().default("in_flight"),
    responseStatus: integer("response_status"),
    responseBody: jsonb("response_body"),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.key] })],
);

/** Provider side of the embedded payment processor: checkouts, payments and refunds it has recorded. */
export const embeddedCheckouts = pgTable("embedded_checkouts", {
  id: text("id").primaryKey(),
  accountId: text("account_id").notNull(),
  /** payment | setup (save a card) | subscription */
  mode: text("mode").notNull(),
  amountPence: bigint("amount_pence", { mode: "number" }).notNull(),
  vatPence: bigint("vat_pence", { mode: "number" }).notNull(),
  /** open | paid | failed */
  status: text("status").notNull().default("open"),
  failureReason: text("failure_reason"),
  paymentId: text("payment_id"),
  metadata: jsonb("metadata").$type<Record<string, string>>().notNull(),
  createdAt: createdAt(),
});

/** The embedded processor's monthly top-ups: each renewal charges the card the first period was paid with. */
export const embeddedSubscriptions = pgTable(
  "embedded_subscriptions",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    amountPence: bigint("amount_pence", { mode: "number" }).notNull(),
    vatPence: bigint("vat_pence", { mode: "number" }).notNull(),
    /** The embedded payment whose card pays each renewal. */
    cardPaymentId: text("card_payment_id").notNull(),
    /** active | past_due | canceled */
    status: text("status").notNull(),
    currentPeriodStart: timestamp("current_period_start", { withTimezone: true }).notNull(),
    currentPeriodEnd: timestamp("current_period_end", { withTimezone: true }).notNull(),
    metadata: jsonb("metadata").$type<Record<string, string>>().notNull(),
    createdAt: createdAt(),
    canceledAt: timestamp("canceled_at", { withTimezone: true }),
  },
  (table) => [index("embedded_subscriptions_due").on(table.status, table.currentPeriodEnd)],
);

export const embeddedPayments = pgTable("embedded_payments", {
  id: text("id").primaryKey(),
  accountId: text("account_id").notNull(),
  amountPence: bigint("amount_pence", { mode: "number" }).notNull(),
  refundedPence: bigint("refunded_pence", { mode: "number" }).notNull().default(0),
  cardLast4: text("card_last4").notNull(),
  createdAt: createdAt(),
});

/** Webhook events the embedded provider owes the service, retried with backoff until acknowledged. */
export const embeddedWebhookDeliveries = pgTable(
  "embedded_webhook_deliveries",
  {
    eventId: text("event_id").primaryKey(),
    payload: text("payload").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index("embedded_webhook_due").on(table.deliveredAt, table.nextAttemptAt)],
);

/** Service side: every provider event id acted on, so a replay is acknowledged without acting twice. */
export const paymentEvents = pgTable("payment_events", {
  eventId: text("event_id").primaryKey(),
  provider: text("provider").notNull(),
  type: text("type").notNull(),
  receivedAt: createdAt(),
});

/**
 * Authenticated /api/v1 calls: kind, time and how many, never content. One row counts the calls an instance saw
 * for one account and kind within a flush (at most a second), stamped with the first call's time.
 */
export const usageEvents = pgTable(
  "usage_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    accountId: text("account_id").notNull(),
    kind: text("kind").notNull(),
    pence: integer("pence").notNull().default(0),
    calls: integer("calls").notNull().default(1),
    createdAt: createdAt(),
  },
  (table) => [index("usage_events_time").on(table.createdAt)],
);

/** The rollup: calls and spend per account, day and kind. */
export const usageDaily = pgTable(
  "usage_daily",
  {
    accountId: text("account_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    kind: text("kind").notNull(),
    calls: integer("calls").notNull(),
    spendPence: bigint("spend_pence", { mode: "number" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.day, table.kind] })],
);

/** One row per five-minute cycle: whichever instance inserts it runs that cycle's rollup. */
export const usageRollupCycles = pgTable("usage_rollup_cycles", {
  cycleStart: timestamp("cycle_start", { withTimezone: true }).primaryKey(),
  completedAt: createdAt(),
});

/** Mail kept for the portal when no SMTP server is configured. */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id"),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("mail_outbox_account").on(table.accountId, table.createdAt)],
);

/** Billing settings per account: auto top-up, saved card, subscription. */
export const billingSettings = pgTable("billing_settings", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id),
  autoTopUpEnabled: boolean("auto_top_up_enabled").notNull().default(false),
  autoTopUpThresholdPence: integer("auto_top_up_threshold_pence"),
  autoTopUpAmountPence: integer("auto_top_up_amount_pence"),
  /** Why automatic top-up was switched off by the service (a declined card), and when; cleared on re-enabling. */
  autoTopUpDisabledReason: text("auto_top_up_disabled_reason"),
  autoTopUpDisabledMessage: text("auto_top_up_disabled_message"),
  autoTopUpDisabledAt: timestamp("auto_top_up_disabled_at", { withTimezone: true }),
  paymentMethodId: text("payment_method_id"),
  paymentMethodLast4: text("payment_method_last4"),
  paymentMethodBrand: text("payment_method_brand"),
  /** A monthly top-up checkout opened and not yet paid: its amount and when it was opened. */
  subscriptionPendingAmountPence: integer("subscription_pending_amount_pence"),
  subscriptionPendingSince: timestamp("subscription_pending_since", { withTimezone: true }),
});

/** Service side: monthly top-ups as the provider reports them, one row per provider subscription. */
export const subscriptions = pgTable(
  "subscriptions",
  {
    /** The provider's id (sub_…). */
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    amountPence: integer("amount_pence").notNull(),
    /** active | past_due | canceled (final: nothing reopens a cancelled subscription) */
    status: text("status").notNull(),
    currentPeriodEnd: timestamp("current_period_end", { withTimezone: true }),
    /** The provider time of the status applied last, so a late, older event changes nothing. */
    statusAt: timestamp("status_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    canceledAt: timestamp("canceled_at", { withTimezone: true }),
  },
  (table) => [
    index("subscriptions_account").on(table.accountId, table.createdAt),
    check("subscriptions_status_known", sql`${table.status} in ('active', 'past_due', 'canceled')`),
  ],
);

/** The Stripe provider's customer per account (saved cards and subscriptions hang off it). */
export const stripeCustomers = pgTable("stripe_customers", {
  accountId: text("account_id").primaryKey(),
  customerId: text("customer_id").notNull().unique(),
  createdAt: createdAt(),
});
