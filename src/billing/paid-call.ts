import { ApiError } from "../http/errors.ts";
import type { KeyPrincipal } from "../keys/key-store.ts";
import type { ChargeKind, Charging, Reservation } from "./charging.ts";

export interface PaidUsage {
  chargedPence: number;
  balancePence: number;
}

/**
 * Reserve → work → commit, or release when the work ends free (refusal, safeguarding, not covered) or fails.
 * Anything thrown by the work releases the reservation before it propagates: a fault on our side is never charged.
 */
export async function runPaidCall<T>(
  charging: Charging,
  context: { principal: KeyPrincipal; kind: ChargeKind; requestId: string },
  work: (reservation: Reservation) => Promise<{ charge: boolean; value: T }>,
): Promise<{ value: T; usage: PaidUsage }> {
  const reservation = await reserveOrRefuse(charging, context);
  let outcome: { charge: boolean; value: T };
  try {
    outcome = await work(reservation);
  } catch (error) {
    await charging.release(reservation).catch(() => {});
    throw error;
  }
  if (!outcome.charge) {
    const { balancePence } = await charging.release(reservation);
    return { value: outcome.value, usage: { chargedPence: 0, balancePence } };
  }
  const committed = await charging.commit(reservation);
  return { value: outcome.value, usage: committed };
}

export async function reserveOrRefuse(
  charging: Charging,
  context: { principal: KeyPrincipal; kind: ChargeKind; requestId: string },
): Promise<Reservation> {
  const reserved = await charging.reserve({
    accountId: context.principal.accountId,
    keyId: context.principal.keyId,
    kind: context.kind,
    requestId: context.requestId,
  });
  if (!reserved.ok) {
    throw new ApiError("insufficient_balance", {
      message: `This call costs ${reserved.pricePence}p and the balance is ${reserved.balancePence}p. Top up in the developer portal.`,
    });
  }
  return reserved.reservation;
}
