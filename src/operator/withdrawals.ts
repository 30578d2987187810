import { eq } from "drizzle-orm";
import type { Clock } from "../shared/ids.ts";
import type { SignalBus } from "../signals/signal-bus.ts";
import type { Database } from "../storage/database.ts";
import { withdrawnEndpoints } from "./operator-schema.ts";

/** The endpoints an operator can withdraw: the names paid routes declare in `config.guard.endpoint`. */
export const withdrawableEndpoints = ["align", "questions", "genie_chat", "chat"] as const;
export type WithdrawableEndpoint = (typeof withdrawableEndpoints)[number];

/** A running instance re-reads the table at least this often, even if a signal is lost. */
export const withdrawalRefreshMs = 5_000;

/**
 * Which endpoints are withdrawn, answered from memory on every request. Changes arrive on the signal bus at
 * once (Redis or PostgreSQL, so every instance hears them) and by a periodic re-read as a safety net.
 */
export class WithdrawnEndpoints {
  private withdrawn = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Database,
    private readonly bus: SignalBus,
    private readonly clock: Clock,
  ) {}

  async start(): Promise<void> {
    await this.refresh();
    this.bus.subscribe("endpoint-changed", () => void this.refresh().catch(() => {}));
    this.timer = setInterval(() => void this.refresh().catch(() => {}), withdrawalRefreshMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  isWithdrawn(endpoint: string): boolean {
    return this.withdrawn.has(endpoint);
  }

  async refresh(): Promise<void> {
    const rows = await this.db.select({ endpoint: withdrawnEndpoints.endpoint }).from(withdrawnEndpoints);
    this.withdrawn = new Set(rows.map((row) => row.endpoint));
  }

  async withdraw(endpoint: WithdrawableEndpoint, reason: string): Promise<void> {
    await this.db
      .insert(withdrawnEndpoints)
      .values({ endpoint, reason, withdrawnAt: this.clock.now() })
      .onConflictDoUpdate({ target: withdrawnEndpoints.endpoint, set: { reason } });
    await this.announce();
  }

  async restore(endpoint: WithdrawableEndpoint): Promise<void> {
    await this.db.delete(withdrawnEndpoints).where(eq(withdrawnEndpoints.endpoint, endpoint));
    await this.announce();
  }

  private async announce(): Promise<void> {
    await this.refresh();
    await this.bus.publish("endpoint-changed", "");
  }
}
