import { beforeAll, describe, expect, it } from "vitest";
import { alignTargets, measureAligner, readAlignTexts, type AlignTextCase } from "../../evaluation/align.ts";
import { createOfflineAligner } from "../../src/align/index.ts";
import { loadCatalogue } from "../../src/catalogue/load.ts";
import type { CatalogueSnapshot } from "../../src/catalogue/model.ts";

describe("offline alignment on the real catalogue", () => {
  let snapshot: CatalogueSnapshot;
  let cases: AlignTextCase[];
  beforeAll(async () => {
    [snapshot, cases] = await Promise.all([loadCatalogue(), readAlignTexts()]);
  });

  it("meets the top-3 target on the labelled teacher texts, every label existing", async () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
    const result = await measureAligner(snapshot, createOfflineAligner(snapshot), cases);
    expect(result.unknownIds).toEqual([]);
    expect(result.top3).toBeGreaterThanOrEqual(alignTargets.offlineTop3);
  });
});
