/**
 * The contract between paid endpoints and the ledger: reserve the price before the work, commit on success,
 * release on a refusal, a safeguarding reply, a validation problem found late, or any fault on our side.
 */
export const chargeKinds = ["align", "genie_chat", "chat", "questions"] as const;
export type ChargeKind = (typeof chargeKinds)[number];

export interface Reservation {
  id: string;
  accountId: string;
  kind: ChargeKind;
  pricePence: number;
}

export type ReserveOutcome =
  | { ok: true; reservation: Reservation; balancePence: number }
  | { ok: false; reason: "insufficient_balance"; balancePence: number; pricePence: number };

export interface Charging {
  /** Holds the price in force now; the balance never goes below zero. */
  reserve(input: {
    accountId: string;
    keyId: string;
    kind: ChargeKind;
    requestId: string;
  }): Promise<ReserveOutcome>;
  /** Makes the reservation a charge; returns the balance after it. Idempotent. */
  commit(reservation: Reservation): Promise<{ chargedPence: number; balancePence: number }>;
  /** Returns a reservation in full; returns the balance after it. Idempotent. */
  release(reservation: Reservation): Promise<{ balancePence: number }>;
  /** The live balance, for responses that charge nothing. */
  balance(accountId: string): Promise<number>;
}

/**
 * Charging that takes nothing: used when an Idempotency-Key repeat must be answered again (a chat turn, whose
 * text we never keep) without a second charge. The usage it reports is 0p and the live balance.
 */
export function freeOfCharge(charging: Charging): Charging {
  const settle = async (reservation: Reservation) => ({
    chargedPence: 0,
    balancePence: await charging.balance(reservation.accountId),
  });
  return {
    reserve: async ({ accountId, kind, requestId }) => ({
      ok: true,
      reservation: { id: `free_${requestId}`, accountId, kind, pricePence: 0 },
      balancePence: await charging.balance(accountId),
    }),
    commit: settle,
    release: settle,
    balance: (accountId) => charging.balance(accountId),
  };
}
