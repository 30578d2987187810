import { createHash } from "node:crypto";
import { and, eq, lt, or, sql } from "drizzle-orm";
import type { Clock } from "../shared/ids.ts";
import type { Database } from "../storage/database.ts";
import { idempotencyKeys } from "../storage/schema.ts";

export const idempotencyTtlMs = 24 * 60 * 60 * 1000;
/** A key still in flight after this long belonged to an instance that died mid-call; it may be claimed again. */
export const idempotencyInFlightMs = 10 * 60 * 1000;

export type IdempotencyBegin =
  { kind: "new" } | { kind: "replay"; status: number; body: unknown } | { kind: "conflict" };

/** SHA-256 of the raw request body: a repeat must send the same bytes to be a replay. */
export function hashBody(body: string | Buffer): string {
  return createHash("sha256").update(body).digest("hex");
}

/** The Idempotency-Key store for paid POSTs (24 hours, per account). */
export class IdempotencyStore {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  async begin(input: { accountId: string; key: string; bodyHash: string }): Promise<IdempotencyBegin> {
    const now = this.clock.now();
    const expiredBefore = new Date(now.getTime() - idempotencyTtlMs);
    const abandonedBefore = new Date(now.getTime() - idempotencyInFlightMs);
    // An expired record is claimed afresh, as if the key had never been used.
    const claimed = await this.db
      .insert(idempotencyKeys)
      .values({ accountId: input.accountId, key: input.key, bodyHash: input.bodyHash, createdAt: now })
      .onConflictDoUpdate({
        target: [idempotencyKeys.accountId, idempotencyKeys.key],
        set: {
          bodyHash: input.bodyHash,
          state: "in_flight",
          responseStatus: null,
          responseBody: null,
          createdAt: now,
        },
        setWhere: or(
          lt(idempotencyKeys.createdAt, expiredBefore),
          and(eq(idempotencyKeys.state, "in_flight"), lt(idempotencyKeys.createdAt, abandonedBefore)),
        ),
      })
      .returning({ key: idempotencyKeys.key });
    if (claimed.length > 0) return { kind: "new" };
    const [existing] = await this.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.accountId, input.accountId), eq(idempotencyKeys.key, input.key)));
    if (!existing || existing.bodyHash !== input.bodyHash || existing.state !== "done")
      return { kind: "conflict" };
    return { kind: "replay", status: existing.responseStatus ?? 200, body: existing.responseBody };
  }

  /** Stores the response to replay. */
  async complete(input: { accountId: string; key: string; status: number; body: unknown }): Promise<void> {
    await this.db
      .update(idempotencyKeys)
      .set({
        state: "done",
        responseStatus: input.status,
        responseBody: sql`${JSON.stringify(input.body)}::jsonb`,
      })
      .where(and(eq(idempotencyKeys.accountId, input.accountId), eq(idempotencyKeys.key, input.key)));
  }

  /** Forgets a key whose request failed on our side, so the client may retry it with the same key. */
  async abandon(input: { accountId: string; key: string }): Promise<void> {
    await this.db
      .delete(idempotencyKeys)
      .where(
        and(
          eq(idempotencyKeys.accountId, input.accountId),
          eq(idempotencyKeys.key, input.key),
          eq(idempotencyKeys.state, "in_flight"),
        ),
      );
  }

  async purgeExpired(): Promise<void> {
    const cutoff = new Date(this.clock.now().getTime() - idempotencyTtlMs);
    await this.db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, cutoff));
  }
}
