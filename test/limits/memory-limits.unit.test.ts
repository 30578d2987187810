import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRateLimits, MemoryWindows } from "../../src/limits/rate-limits.ts";

const settings = { generalPerMinute: 5, aiPerMinute: 2, ipPerMinute: 3, loginPerQuarterHour: 2 };

describe("in-memory fixed windows", () => {
  it("allows at most `points` requests per key in any window, and again once it ends", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 40_000 })), {
          maxLength: 60,
        }),
        (points, steps) => {
          const windows = new MemoryWindows("general", points, 60);
          // A reference model: the window of each key opens at its first request and lasts 60 s.
          const model = new Map<number, { startMs: number; count: number }>();
          let nowMs = 1_000_000;
          for (const [key, advanceMs] of steps) {
            nowMs += advanceMs;
            let window = model.get(key);
            if (!window || nowMs >= window.startMs + 60_000) {
              window = { startMs: nowMs, count: 0 };
              model.set(key, window);
            }
            window.count += 1;
            const outcome = windows.consume(String(key), nowMs);
            expect(outcome.ok).toBe(window.count <= points);
            expect(outcome.state.remaining).toBe(Math.max(0, points - window.count));
            expect(outcome.state.resetSeconds).toBe(
              Math.max(1, Math.ceil((window.startMs + 60_000 - nowMs) / 1000)),
            );
            expect(outcome.state.limit).toBe(points);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("does not count a request refused by the ai limit against the general one", () => {
    const limits = createRateLimits(
      settings,
      null,
      () => {},
      () => 5_000,
    );
    expect(limits.consumeForKeyNow("key_a", true)?.allowed).toBe(true);
    expect(limits.consumeForKeyNow("key_a", true)?.allowed).toBe(true);
    const refused = limits.consumeForKeyNow("key_a", true)!;
    expect(refused.allowed).toBe(false);
    expect(refused.allowed === false && refused.refusedBy.policy).toBe("ai");
    // Two calls counted in general, not three: 5 - 2 - 1 left after this one.
    const next = limits.consumeForKeyNow("key_a", false)!;
    expect(next.allowed).toBe(true);
    expect(next.states[0]).toMatchObject({ policy: "general", remaining: 2 });
  });

  it("answers the same through the promise and the synchronous call, per key and per IP", async () => {
    let nowMs = 0;
    const limits = createRateLimits(
      settings,
      null,
      () => {},
      () => nowMs,
    );
    expect(limits.backend).toBe("memory");
    for (let call = 1; call <= 5; call += 1)
      expect((await limits.consumeForKey("key_b", false)).allowed).toBe(true);
    expect(limits.consumeForKeyNow("key_b", false)?.allowed).toBe(false);
    for (let call = 1; call <= 3; call += 1)
      expect((await limits.consumeForIp("10.0.0.1")).allowed).toBe(true);
    const refused = await limits.consumeForIp("10.0.0.1");
    expect(refused.allowed).toBe(false);
    nowMs += 60_000;
    expect((await limits.consumeForIp("10.0.0.1")).allowed).toBe(true);
    expect(limits.consumeForKeyNow("key_b", false)?.allowed).toBe(true);
  });
});
