import { describe, expect, it } from "vitest";
import { measureSearch, readSearchQueries, searchTargets } from "../../evaluation/search.ts";
import { loadCatalogue } from "../../src/catalogue/load.ts";

describe("catalogue search on the real catalogue", () => {
  it("meets the precision@5 and MRR targets on the labelled queries, every label existing", async () => {
    const [snapshot, cases] = await Promise.all([loadCatalogue(), readSearchQueries()]);
    expect(cases.length).toBeGreaterThanOrEqual(60);
    const result = measureSearch(snapshot, cases);
    expect(result.unknownIds).toEqual([]);
    expect(result.precisionAt5).toBeGreaterThanOrEqual(searchTargets.precisionAt5);
    expect(result.meanReciprocalRank).toBeGreaterThanOrEqual(searchTargets.meanReciprocalRank);
  });
});
