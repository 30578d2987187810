import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { wilsonInterval } from "../../evaluation/interval.ts";

describe("the Wilson interval printed beside each evaluation rate", () => {
  it("matches published values", () => {
    // 95% Wilson intervals: 50 of 100 → 40.4–59.6%; 0 of 10 → 0–27.8%; 123 of 130 → 89.3–97.4%.
    const half = wilsonInterval(50, 100);
    expect(half.low).toBeCloseTo(0.4038, 3);
    expect(half.high).toBeCloseTo(0.5962, 3);
    const none = wilsonInterval(0, 10);
    expect(none.low).toBe(0);
    expect(none.high).toBeCloseTo(0.2775, 3);
    const most = wilsonInterval(123, 130);
    expect(most.low).toBeCloseTo(0.893, 2);
    expect(most.high).toBeCloseTo(0.974, 2);
  });

  it("always contains the measured rate and narrows as the count grows", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (total, share) => {
          const successes = Math.round(share * total);
          const { low, high } = wilsonInterval(successes, total);
          const rate = successes / total;
          expect(low).toBeGreaterThanOrEqual(0);
          expect(high).toBeLessThanOrEqual(1);
          expect(low).toBeLessThanOrEqual(rate + 1e-12);
          expect(high).toBeGreaterThanOrEqual(rate - 1e-12);
          const larger = wilsonInterval(successes * 4, total * 4);
          expect(larger.high - larger.low).toBeLessThan(high - low);
        },
      ),
    );
  });
});
