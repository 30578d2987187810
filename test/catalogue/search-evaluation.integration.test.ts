import { describe, expect, it } from "vitest";
import {
  labelledCatalogue,
  measureSearch,
  readSearchQueries,
  searchTargets,
} from "../../evaluation/search.ts";

describe("catalogue search on the real catalogue", () => {
  // Over the specifications the labels were written for (see labelledCatalogue).
  it("meets the precision@5 and MRR targets on the labelled queries, every label existing", async () => {
    const cases = await readSearchQueries();
    const snapshot = await labelledCatalogue(cases);
    expect(cases.length).toBeGreaterThanOrEqual(60);
    const result = measureSearch(snapshot, cases);
    expect(result.unknownIds).toEqual([]);
    expect(result.precisionAt5).toBeGreaterThanOrEqual(searchTargets.precisionAt5);
    expect(result.meanReciprocalRank).toBeGreaterThanOrEqual(searchTargets.meanReciprocalRank);
  });
});
