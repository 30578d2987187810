import { and, desc, eq, lte, sql } from "drizzle-orm";
import type { Database } from "../storage/database.ts";
import { prices } from "../storage/schema.ts";
import type { ChargeKind } from "./charging.ts";
import { launchPrices, type PriceList } from "./prices.ts";

type Queryable = Pick<Database, "select">;

/** Launch prices take effect from the epoch, so every later scheduled price overrides them. */
const launchEffectiveAt = new Date(0);

export const launchPriceRows: { kind: ChargeKind; pence: number }[] = [
  { kind: "align", pence: launchPrices.alignPence },
  { kind: "genie_chat", pence: launchPrices.genieChatPence },
  { kind: "chat", pence: launchPrices.chatPence },
  { kind: "questions", pence: launchPrices.questionSetPence },
];

export function launchPriceOf(kind: ChargeKind): number {
  return launchPriceRows.find((launch) => launch.kind === kind)?.pence ?? 0;
}

/** Prices by effective date, read from the price table. */
export class PriceBook {
  constructor(private readonly db: Database) {}

  async seedLaunchPrices(): Promise<void> {
    await this.db
      .insert(prices)
      .values(launchPriceRows.map((row) => ({ ...row, effectiveAt: launchEffectiveAt })))
      .onConflictDoNothing();
  }

  /** The price in force at `at`; falls back to the launch price if the table has no row yet. */
  async priceAt(kind: ChargeKind, at: Date, db: Queryable = this.db): Promise<number> {
    const [row] = await db
      .select({ pence: prices.pence })
      .from(prices)
      .where(and(eq(prices.kind, kind), lte(prices.effectiveAt, at)))
      .orderBy(desc(prices.effectiveAt))
      .limit(1);
    return row?.pence ?? launchPriceOf(kind);
  }

  async listAt(at: Date): Promise<PriceList> {
    const [align, genieChat, chat, questions] = await Promise.all([
      this.priceAt("align", at),
      this.priceAt("genie_chat", at),
      this.priceAt("chat", at),
      this.priceAt("questions", at),
    ]);
    return { alignPence: align, genieChatPence: genieChat, chatPence: chat, questionSetPence: questions };
  }

  async schedule(kind: ChargeKind, pence: number, effectiveAt: Date): Promise<void> {
    await this.db
      .insert(prices)
      .values({ kind, pence, effectiveAt })
      .onConflictDoUpdate({ target: [prices.kind, prices.effectiveAt], set: { pence: sql`excluded.pence` } });
  }
}
