import { and, eq, lt, sql } from "drizzle-orm";
import { formatPounds, type Mailer } from "../mail/mailer.ts";
import type { PaymentProvider } from "../payments/provider.ts";
import { newId, type Clock } from "../shared/ids.ts";
import type { Database } from "../storage/database.ts";
import { accounts, billingSettings, topUps } from "../storage/schema.ts";
import type { Charging } from "./charging.ts";
import { lockAccount, type Ledger } from "./ledger.ts";

export const autoTopUpThresholdPence = { min: 50, max: 5000 } as const;
/** A pending automatic top-up this old was left by a crash or an unreachable provider: try it again. */
export const autoTopUpRetryAfterMs = 2 * 60 * 1000;
/** After this, stop trying: providers keep idempotency keys for a day, so a later try could charge twice. */
export const autoTopUpGiveUpMs = 23 * 60 * 60 * 1000;

export interface AutoTopUpSettings {
  enabled: boolean;
  thresholdPence: number | null;
  amountPence: number | null;
  /** Set when the service switched automatic top-up off (a card-level refusal), until it is switched on again. */
  disabledReason: string | null;
  disabledMessage: string | null;
  disabledAt: string | null;
}

export type ConfigureOutcome =
  { ok: true; settings: AutoTopUpSettings } | { ok: false; reason: "payment_method_required" };

export type AutoTopUpAttempt =
  | { kind: "charged"; topUpId: string }
  | { kind: "declined"; topUpId: string; code: string }
  | { kind: "retry_later"; topUpId: string }
  | { kind: "not_pending" };

/**
 * Automatic top-up. A charge that leaves the balance below the account's threshold claims the account's one
 * automatic top-up in flight (a pending top-up row, unique per account in the database, inserted under the
 * account's row lock), so however many charges cross at once, on however many instances, one card charge is
 * made; the next crossing can only start once that top-up is confirmed or has failed. The card is charged
 * off-session with the top-up id as the idempotency key; only the provider's webhook moves the balance.
 * A card-level refusal fails the top-up, switches automatic top-up off with the reason, and emails the
 * developer, once, whichever of the charge's answer and the provider's webhook arrives first.
 */
export class AutoTopUpService {
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();

  constructor(
    private readonly options: {
      db: Database;
      clock: Clock;
      ledger: Ledger;
      provider: PaymentProvider;
      mailer: Mailer;
      onError: (error: unknown) => void;
    },
  ) {}

  async settings(accountId: string): Promise<AutoTopUpSettings> {
    const [row] = await this.options.db
      .select()
      .from(billingSettings)
      .where(eq(billingSettings.accountId, accountId));
    return {
      enabled: row?.autoTopUpEnabled ?? false,
      thresholdPence: row?.autoTopUpThresholdPence ?? null,
      amountPence: row?.autoTopUpAmountPence ?? null,
      disabledReason: row?.autoTopUpDisabledReason ?? null,
      disabledMessage: row?.autoTopUpDisabledMessage ?? null,
      disabledAt: row?.autoTopUpDisabledAt?.toISOString() ?? null,
    };
  }

  /** Saves the settings; switching on needs a saved card, and clears the reason it was last switched off. */
  async configure(
    accountId: string,
    input: { enabled: boolean; thresholdPence: number; amountPence: number },
  ): Promise<ConfigureOutcome> {
    const { db } = this.options;
    const [current] = await db
      .select({ paymentMethodId: billingSettings.paymentMethodId })
      .from(billingSettings)
      .where(eq(billingSettings.accountId, accountId));
    if (input.enabled && !current?.paymentMethodId) return { ok: false, reason: "payment_method_required" };
    const values = {
      autoTopUpEnabled: input.enabled,
      autoTopUpThresholdPence: input.thresholdPence,
      autoTopUpAmountPence: input.amountPence,
      ...(input.enabled
        ? { autoTopUpDisabledReason: null, autoTopUpDisabledMessage: null, autoTopUpDisabledAt: null }
        : {}),
    };
    await db
      .insert(billingSettings)
      .values({ accountId, ...values })
      .onConflictDoUpdate({ target: billingSettings.accountId, set: values });
    return { ok: true, settings: await this.settings(accountId) };
  }

  /** Switches automatic top-up off at the developer's (or the account's) end; the settings are kept. */
  async switchOff(accountId: string): Promise<void> {
    await this.options.db
      .update(billingSettings)
      .set({ autoTopUpEnabled: false })
      .where(eq(billingSettings.accountId, accountId));
  }

  /**
   * Called after a charge (or a call refused for balance) with the balance it left; checks in the background
   * so the paid call's answer never waits for a card charge. Checks for one account run one at a time.
   */
  notice(accountId: string, balancePence: number): void {
    if (balancePence >= autoTopUpThresholdPence.max) return;
    if (this.running.has(accountId)) {
      this.again.add(accountId);
      return;
    }
    const work = (async () => {
      try {
        do {
          this.again.delete(accountId);
          await this.check(accountId);
        } while (this.again.has(accountId));
      } catch (error) {
        this.options.onError(error);
      } finally {
        this.running.delete(accountId);
      }
    })();
    this.running.set(accountId, work);
  }

  /** Resolves once every background check started so far has finished (tests, shutdown). */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()]);
  }

  async check(accountId: string): Promise<AutoTopUpAttempt | null> {
    const topUpId = await this.claim(accountId);
    return topUpId ? this.attempt(topUpId) : null;
  }

  /**
   * Claims this crossing's automatic top-up: under the account's row lock (the lock every balance movement
   * takes first), reads the live balance and inserts the pending automatic top-up, which the unique index
   * allows once per account at a time. Answers its id when this call made it.
   */
  async claim(accountId: string): Promise<string | null> {
    const { db, clock } = this.options;
    // A cheap look first, so accounts without automatic top-up never take the lock.
    const [look] = await db
      .select({ threshold: billingSettings.autoTopUpThresholdPence, balance: accounts.balancePence })
      .from(billingSettings)
      .innerJoin(accounts, eq(accounts.id, billingSettings.accountId))
      .where(and(eq(billingSettings.accountId, accountId), eq(billingSettings.autoTopUpEnabled, true)));
    if (!look?.threshold || look.balance >= look.threshold) return null;
    return db.transaction(async (tx) => {
      const [account] = await tx
        .select({ balancePence: accounts.balancePence, status: accounts.status })
        .from(accounts)
        .where(eq(accounts.id, accountId))
        .for("update");
      const [settings] = await tx
        .select()
        .from(billingSettings)
        .where(eq(billingSettings.accountId, accountId));
      if (
        !account ||
        account.status !== "active" ||
        !settings?.autoTopUpEnabled ||
        !settings.paymentMethodId ||
        !settings.autoTopUpThresholdPence ||
        !settings.autoTopUpAmountPence ||
        account.balancePence >= settings.autoTopUpThresholdPence
      )
        return null;
      const [claimed] = await tx
        .insert(topUps)
        .values({
          id: newId("top"),
          accountId,
          amountPence: settings.autoTopUpAmountPence,
          method: "automatic",
          status: "pending",
          createdAt: clock.now(),
        })
        .onConflictDoNothing()
        .returning({ id: topUps.id });
      return claimed?.id ?? null;
    });
  }

  /** Charges the saved card for a pending automatic top-up; safe to repeat (the provider sees one charge). */
  async attempt(topUpId: string): Promise<AutoTopUpAttempt> {
    const { db, provider } = this.options;
    const [topUp] = await db.select().from(topUps).where(eq(topUps.id, topUpId));
    if (!topUp || topUp.status !== "pending" || topUp.method !== "automatic") return { kind: "not_pending" };
    const [settings] = await db
      .select()
      .from(billingSettings)
      .where(eq(billingSettings.accountId, topUp.accountId));
    if (!settings?.autoTopUpEnabled || !settings.paymentMethodId) {
      await this.options.ledger.failTopUp(topUpId, "automatic_top_up_off");
      return { kind: "not_pending" };
    }
    const outcome = await provider.chargeOffSession({
      accountId: topUp.accountId,
      paymentMethodId: settings.paymentMethodId,
      amountPence: topUp.amountPence,
      metadata: { purpose: "topup", topUpId, accountId: topUp.accountId, offSession: "true" },
      idempotencyKey: `automatic-top-up-${topUpId}`,
    });
    if (outcome.ok) return { kind: "charged", topUpId };
    if (outcome.kind === "provider_unavailable") return { kind: "retry_later", topUpId };
    const code = outcome.kind === "no_payment_method" ? "no_payment_method" : outcome.code;
    await this.declined(topUpId, code, outcome.message);
    return { kind: "declined", topUpId, code };
  }

  /**
   * A card-level refusal of an automatic top-up: fails it, switches automatic top-up off with the reason and
   * emails the developer. Only the call that fails the pending top-up does the rest, so it happens once.
   */
  async declined(topUpId: string, code: string, message: string): Promise<boolean> {
    const { db, clock } = this.options;
    const now = clock.now();
    const switchedOff = await db.transaction(async (tx) => {
      const [topUp] = await tx.select().from(topUps).where(eq(topUps.id, topUpId));
      if (!topUp) return null;
      await lockAccount(tx, topUp.accountId);
      const [failed] = await tx
        .update(topUps)
        .set({ status: "failed", failureReason: code })
        .where(and(eq(topUps.id, topUpId), eq(topUps.status, "pending")))
        .returning({ id: topUps.id });
      if (!failed || topUp.method !== "automatic") return null;
      const [settings] = await tx
        .update(billingSettings)
        .set({
          autoTopUpEnabled: false,
          autoTopUpDisabledReason: code,
          autoTopUpDisabledMessage: message,
          autoTopUpDisabledAt: now,
        })
        .where(eq(billingSettings.accountId, topUp.accountId))
        .returning({ last4: billingSettings.paymentMethodLast4 });
      const [account] = await tx
        .select({ email: accounts.email, balancePence: accounts.balancePence })
        .from(accounts)
        .where(eq(accounts.id, topUp.accountId));
      return { topUp, account, last4: settings?.last4 ?? null };
    });
    if (!switchedOff?.account) return false;
    const { topUp, account, last4 } = switchedOff;
    await this.options.mailer.send({
      accountId: topUp.accountId,
      to: account.email,
      subject: "Automatic top-up declined: it is now switched off",
      text: [
        `We tried to top up your Syllabi balance by ${formatPounds(topUp.amountPence)} with your saved card${last4 ? ` ending ${last4}` : ""}, and the charge was refused: ${message} (${code}).`,
        "Automatic top-up is now switched off, so we will not try that card again.",
        `Your balance is ${formatPounds(account.balancePence)}. Manual top-ups keep working: top up in the developer portal under Billing, and switch automatic top-up back on there once the card is sorted out.`,
      ].join("\n\n"),
    });
    return true;
  }

  /** Retries automatic top-ups left pending by a crash or an unreachable provider; gives up after a day. */
  async retryStale(): Promise<number> {
    const { db, clock } = this.options;
    const now = clock.now().getTime();
    const stale = await db
      .select({ id: topUps.id, createdAt: topUps.createdAt })
      .from(topUps)
      .where(
        and(
          eq(topUps.method, "automatic"),
          eq(topUps.status, "pending"),
          lt(topUps.createdAt, new Date(now - autoTopUpRetryAfterMs)),
        ),
      )
      .limit(100);
    let retried = 0;
    for (const row of stale) {
      if (now - row.createdAt.getTime() > autoTopUpGiveUpMs) {
        await this.options.ledger.failTopUp(row.id, "provider_unavailable");
        continue;
      }
      await this.attempt(row.id);
      retried += 1;
    }
    return retried;
  }

  /** For reports and tests: automatic top-ups an account has had, by status. */
  async countByStatus(accountId: string): Promise<Record<string, number>> {
    const rows = await this.options.db
      .select({ status: topUps.status, count: sql<string>`count(*)` })
      .from(topUps)
      .where(and(eq(topUps.accountId, accountId), eq(topUps.method, "automatic")))
      .groupBy(topUps.status);
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
  }
}

/** The paid routes' charging, watching each charge's resulting balance for automatic top-up. */
export function chargingWithAutoTopUp(charging: Charging, autoTopUp: AutoTopUpService): Charging {
  return {
    async reserve(input) {
      const outcome = await charging.reserve(input);
      if (!outcome.ok) autoTopUp.notice(input.accountId, outcome.balancePence);
      return outcome;
    },
    async commit(reservation) {
      const committed = await charging.commit(reservation);
      if (committed.chargedPence > 0) autoTopUp.notice(reservation.accountId, committed.balancePence);
      return committed;
    },
    release: (reservation) => charging.release(reservation),
    balance: (accountId) => charging.balance(accountId),
  };
}
