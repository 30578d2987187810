import { describe, expect, it } from "vitest";
import { newId } from "../../src/shared/ids.ts";

describe("newId", () => {
  it("makes prefixed base62 ids that do not repeat and use the whole alphabet, across many refills of its pool", () => {
    const ids = Array.from({ length: 20_000 }, () => newId("req"));
    for (const id of ids) expect(id).toMatch(/^req_[0-9A-Za-z]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);

    const counts = new Map<string, number>();
    for (const id of ids)
      for (const character of id.slice(4)) counts.set(character, (counts.get(character) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 400,000 characters over 62 symbols: about 6,450 each if uniform; a biased draw would be far off.
    const expected = (ids.length * 20) / 62;
    for (const count of counts.values()) expect(Math.abs(count - expected) / expected).toBeLessThan(0.06);
  });
});
