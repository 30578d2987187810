import { and, desc, eq, gte, sql } from "drizzle-orm";
import type { FastifyInstance, onResponseHookHandler } from "fastify";
import type { Clock } from "../shared/ids.ts";
import type { Database } from "../storage/database.ts";
import { usageDaily, usageRollupCycles } from "../storage/schema.ts";

export const usageKinds = ["data", "align", "genie_chat", "chat", "questions", "account"] as const;
export type UsageKind = (typeof usageKinds)[number];

export const rollupCycleMs = 5 * 60 * 1000;
/** Usage is written in batches: at most this long after the call, or sooner when this many rows wait. */
export const usageFlushIntervalMs = 1000;
const usageFlushBatchSize = 200;
/** While the database is down, rows wait in memory up to this many; older ones are dropped beyond it. */
const maxPendingRows = 20_000;
export const summaryWindowDays = 30;
const dayMs = 24 * 60 * 60 * 1000;

/** Which usage kind an /api/v1 route is; null for routes that are not metered (e.g. the OpenAPI document). */
export function usageKindForRoute(routeUrl: string | undefined): UsageKind | null {
  if (!routeUrl?.startsWith("/api/v1/")) return null;
  const path = routeUrl.slice("/api/v1".length);
  if (path === "/account") return "account";
  if (path === "/align") return "align";
  if (path === "/chat") return "chat";
  if (path.startsWith("/genies/")) return "genie_chat";
  if (path.startsWith("/questions")) return "questions";
  if (path.startsWith("/subjects") || path === "/search" || path.startsWith("/subtopics")) return "data";
  return null;
}

function isoDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

interface UsageRow {
  account_id: string;
  kind: UsageKind;
  calls: number;
  created_at: string;
}

/**
 * Usage events (kind, time and count, never content), the five-minute rollup and the reads that come from it.
 * Events are counts for the dashboard, not money (spend comes from the ledger), so a call only adds one to a
 * counter in memory, and each flush writes one row per account and kind with how many calls it saw, stamped with
 * the first one's time: one row per call cost more than the data request itself. A crash loses at most the last
 * second of call counts.
 */
export class UsageService {
  /** Calls since the last flush, by account and kind, with the time of the first. */
  private counting = new Map<string, Map<UsageKind, { calls: number; firstAtMs: number }>>();
  private countingRows = 0;
  /** Rows a failed flush could not write, retried by the next one. */
  private unwritten: UsageRow[] = [];
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  record(accountId: string, kind: UsageKind): void {
    let byKind = this.counting.get(accountId);
    if (byKind === undefined) {
      byKind = new Map();
      this.counting.set(accountId, byKind);
    }
    const counter = byKind.get(kind);
    if (counter !== undefined) {
      counter.calls += 1;
      return;
    }
    byKind.set(kind, { calls: 1, firstAtMs: this.clock.now().getTime() });
    this.countingRows += 1;
    if (this.countingRows >= usageFlushBatchSize) void this.flush();
  }

  private takeRows(): UsageRow[] {
    const rows = this.unwritten;
    this.unwritten = [];
    for (const [accountId, byKind] of this.counting) {
      for (const [kind, { calls, firstAtMs }] of byKind) {
        rows.push({ account_id: accountId, kind, calls, created_at: new Date(firstAtMs).toISOString() });
      }
    }
    this.counting = new Map();
    this.countingRows = 0;
    return rows;
  }

  /** Writes what was counted; concurrent calls queue, so once it resolves every earlier call is stored. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const batch = this.takeRows();
      if (batch.length === 0) return;
      try {
        // One parameter however long the batch: building a many-row insert costs more than running it.
        await this.db.execute(sql`
          insert into usage_events (account_id, kind, calls, created_at)
          select account_id, kind, calls, created_at
            from json_to_recordset(${JSON.stringify(batch)}::json)
              as event(account_id text, kind text, calls integer, created_at timestamptz)`);
      } catch (error) {
        this.unwritten = [...batch, ...this.unwritten].slice(-maxPendingRows);
        throw error;
      }
    });
    const done = this.flushing;
    this.flushing = done.catch(() => {});
    return done;
  }

  /**
   * Runs this five-minute cycle's rollup unless another instance already has: the cycle row's primary key
   * decides, inside the same transaction as the rewrite, so each cycle runs exactly once.
   * Calls come from usage events; spend from committed reservations (the ledger's truth).
   */
  async runCycle(): Promise<boolean> {
    await this.flush().catch(() => {});
    const now = this.clock.now();
    const cycleStart = new Date(Math.floor(now.getTime() / rollupCycleMs) * rollupCycleMs);
    const firstDay = isoDay(new Date(now.getTime() - summaryWindowDays * dayMs));
    return this.db.transaction(async (tx) => {
      const claimed = await tx
        .insert(usageRollupCycles)
        .values({ cycleStart, completedAt: now })
        .onConflictDoNothing()
        .returning({ cycleStart: usageRollupCycles.cycleStart });
      if (claimed.length === 0) return false;
      await tx.delete(usageDaily).where(gte(usageDaily.day, firstDay));
      await tx.execute(sql`
        insert into usage_daily (account_id, day, kind, calls, spend_pence)
        select account_id, day, kind, sum(calls)::int, sum(spend)::bigint from (
          select account_id, (created_at at time zone 'UTC')::date as day, kind, sum(calls) as calls, 0 as spend
            from usage_events where created_at >= ${firstDay}::date and created_at < ${now.toISOString()}::timestamptz
            group by 1, 2, 3
          union all
          select account_id, (created_at at time zone 'UTC')::date, kind, 0, sum(price_pence)
            from reservations
            where status = 'committed' and created_at >= ${firstDay}::date
              and created_at < ${now.toISOString()}::timestamptz
            group by 1, 2, 3
        ) movements group by 1, 2, 3`);
      return true;
    });
  }

  private async refreshedAt(): Promise<string | null> {
    const [latest] = await this.db
      .select({ completedAt: usageRollupCycles.completedAt })
      .from(usageRollupCycles)
      .orderBy(desc(usageRollupCycles.cycleStart))
      .limit(1);
    return latest?.completedAt.toISOString() ?? null;
  }

  private async rows(accountId: string, days: number) {
    const firstDay = isoDay(new Date(this.clock.now().getTime() - (days - 1) * dayMs));
    return this.db
      .select()
      .from(usageDaily)
      .where(and(eq(usageDaily.accountId, accountId), gte(usageDaily.day, firstDay)));
  }

  /** GET /api/v1/account's usage block. */
  async summary(accountId: string) {
    const rows = await this.rows(accountId, summaryWindowDays);
    const byKind = usageKinds.map((kind) => {
      const mine = rows.filter((row) => row.kind === kind);
      return {
        kind,
        calls: mine.reduce((sum, row) => sum + row.calls, 0),
        spendPence: mine.reduce((sum, row) => sum + row.spendPence, 0),
      };
    });
    return {
      windowDays: summaryWindowDays,
      refreshedAt: await this.refreshedAt(),
      byKind,
      totalCalls: byKind.reduce((sum, kind) => sum + kind.calls, 0),
      totalSpendPence: byKind.reduce((sum, kind) => sum + kind.spendPence, 0),
    };
  }

  /** GET /platform/api/usage: one entry per day, oldest first, every kind present. */
  async daily(accountId: string, days: number) {
    const rows = await this.rows(accountId, days);
    const today = this.clock.now().getTime();
    const series = Array.from({ length: days }, (_, index) => {
      const day = isoDay(new Date(today - (days - 1 - index) * dayMs));
      const byKind = usageKinds.map((kind) => {
        const row = rows.find((candidate) => candidate.day === day && candidate.kind === kind);
        return { kind, calls: row?.calls ?? 0, spendPence: row?.spendPence ?? 0 };
      });
      return { day, byKind };
    });
    return { days, refreshedAt: await this.refreshedAt(), series };
  }
}

/**
 * Records every authenticated /api/v1 call once its response is sent (kind and time only). Call before the routes
 * are registered: the hook is attached to the metered routes only, with their kind decided once.
 */
export function registerUsageRecording(app: FastifyInstance, usage: UsageService): void {
  const recordAs =
    (kind: UsageKind): onResponseHookHandler =>
    // A plain callback rather than an async function: no promise per request for a synchronous count.
    (request, _reply, done) => {
      const principal = request.principal;
      if (principal) usage.record(principal.accountId, kind);
      done();
    };
  app.addHook("onRoute", (route) => {
    const kind = usageKindForRoute(route.url);
    if (!kind) return;
    const existing = route.onResponse === undefined ? [] : [route.onResponse].flat();
    route.onResponse = [...existing, recordAs(kind)];
  });
  const flush = () =>
    usage.flush().catch((error: unknown) => {
      app.log.warn({ err: (error as Error).message }, "usage events not recorded yet; will retry");
    });
  const timer = setInterval(() => void flush(), usageFlushIntervalMs);
  timer.unref();
  app.addHook("onClose", async () => {
    clearInterval(timer);
    await flush();
  });
}
