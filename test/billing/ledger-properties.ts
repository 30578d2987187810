import fc from "fast-check";
import { expect } from "vitest";
import { chargeKinds, type Reservation } from "../../src/billing/charging.ts";
import { ledgerFacts, type LedgerFixture } from "./ledger-fixture.ts";

type Command =
  | { op: "topup"; amountPence: number }
  | { op: "reserve"; kind: (typeof chargeKinds)[number] }
  | { op: "commit"; index: number }
  | { op: "release"; index: number }
  | { op: "refund"; index: number }
  | { op: "sweep"; advanceMinutes: number };

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ op: fc.constant("topup" as const), amountPence: fc.constantFrom(5, 10, 1000) }),
  fc.record({ op: fc.constant("reserve" as const), kind: fc.constantFrom(...chargeKinds) }),
  fc.record({ op: fc.constant("reserve" as const), kind: fc.constantFrom(...chargeKinds) }),
  fc.record({ op: fc.constant("commit" as const), index: fc.nat(20) }),
  fc.record({ op: fc.constant("release" as const), index: fc.nat(20) }),
  fc.record({ op: fc.constant("refund" as const), index: fc.nat(5) }),
  fc.record({ op: fc.constant("sweep" as const), advanceMinutes: fc.integer({ min: 0, max: 20 }) }),
);

/**
 * Random sequences of top-ups, reservations, commits (repeated), releases (repeated), refunds and sweeps;
 * after each sequence: balance == sum of entries == unspent lots, never negative, each reservation charged
 * once and returned at most once, and lifetime spend == committed prices.
 */
export async function checkLedgerInvariants(fixture: LedgerFixture, numRuns: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 30 }), async (commands) => {
      const accountId = await fixture.newAccount();
      const held: Reservation[] = [];
      const lots: string[] = [];
      for (const next of commands) {
        switch (next.op) {
          case "topup":
            lots.push(await fixture.topUp(accountId, next.amountPence));
            break;
          case "reserve": {
            const outcome = await fixture.ledger.reserve({
              accountId,
              keyId: "key_test",
              kind: next.kind,
              requestId: "req_test",
            });
            if (outcome.ok) held.push(outcome.reservation);
            else expect(outcome.balancePence).toBeLessThan(outcome.pricePence);
            break;
          }
          case "commit": {
            const reservation = held[next.index % Math.max(held.length, 1)];
            if (reservation) await fixture.ledger.commit(reservation);
            break;
          }
          case "release": {
            const reservation = held[next.index % Math.max(held.length, 1)];
            if (reservation) await fixture.ledger.release(reservation);
            break;
          }
          case "refund": {
            const lot = lots[next.index % Math.max(lots.length, 1)];
            if (lot) await fixture.ledger.debitRefund({ accountId, topUpId: lot, enforceWindow: true });
            break;
          }
          case "sweep":
            fixture.clock.advance(next.advanceMinutes * 60_000);
            await fixture.ledger.sweepStaleReservations(15 * 60_000);
            break;
        }
        const facts = await ledgerFacts(fixture.storage, accountId);
        expect(facts.balancePence).toBeGreaterThanOrEqual(0);
        expect(facts.balancePence).toBe(facts.entriesTotalPence);
      }
      const facts = await ledgerFacts(fixture.storage, accountId);
      expect(facts.lotsRemainingPence).toBe(facts.balancePence);
      let committedPence = 0;
      for (const reservation of facts.reservations) {
        expect(reservation.charges).toBe(1);
        expect(reservation.returns).toBe(reservation.status === "released" ? 1 : 0);
        if (reservation.status === "committed") committedPence += reservation.pricePence;
      }
      expect(facts.lifetimeSpendPence).toBe(committedPence);
    }),
    { numRuns },
  );
}

/** Many concurrent reservations against a small balance: exactly as many succeed as it covers. */
export async function checkConcurrentReserves(fixture: LedgerFixture): Promise<void> {
  const accountId = await fixture.newAccount();
  await fixture.topUp(accountId, 10);
  const outcomes = await Promise.all(
    Array.from({ length: 25 }, () =>
      fixture.ledger.reserve({ accountId, keyId: "key_test", kind: "align", requestId: "req_test" }),
    ),
  );
  expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(10);
  const facts = await ledgerFacts(fixture.storage, accountId);
  expect(facts.balancePence).toBe(0);
  expect(facts.entriesTotalPence).toBe(0);
}
