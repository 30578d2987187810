import { describe, expect, it } from "vitest";
import {
  evaluateSafeguarding,
  loadLabelledCases,
  loadSubversionCases,
  measureSafeguarding,
  safeguardingTargets,
} from "../../evaluation/safeguarding.ts";

describe("safeguarding evaluation", () => {
  it("has the labelled sets the targets are measured on", async () => {
    const cases = await loadLabelledCases();
    const hardNegatives = cases.filter((item) => item.expected.category === null).length;
    expect(cases.length).toBeGreaterThanOrEqual(400);
    expect(hardNegatives / cases.length).toBeGreaterThan(0.4);
    expect((await loadSubversionCases()).length).toBeGreaterThanOrEqual(60);
    const heldOut = await loadLabelledCases("held-out");
    const heldOutNegatives = heldOut.filter((item) => item.expected.category === null).length;
    expect(heldOut.length).toBeGreaterThanOrEqual(150);
    expect(heldOutNegatives / heldOut.length).toBeGreaterThan(0.3);
    const developmentIds = new Set(cases.map((item) => item.id));
    expect(heldOut.filter((item) => developmentIds.has(item.id))).toEqual([]);
  });

  // The development data is a regression guard: the rules were corrected against it, so it must stay clean.
  // The held-out figures are what `npm run eval` reports as the honest measure, and are not asserted here.
  it("meets every target on the development data", async () => {
    const result = await measureSafeguarding("development");
    expect(result.highSeverityRecall).toBeGreaterThanOrEqual(safeguardingTargets.highSeverityRecall);
    expect(result.overallRecall).toBeGreaterThanOrEqual(safeguardingTargets.overallRecall);
    expect(result.hardNegativeFalsePositiveRate).toBeLessThanOrEqual(
      safeguardingTargets.hardNegativeFalsePositiveRate,
    );
    expect(result.subversionFailures).toEqual([]);
    const lines: string[] = [];
    await evaluateSafeguarding((line) => lines.push(line));
    expect(lines.join("\n")).toContain("development set");
    expect(lines.join("\n")).toContain("held-out set");
    // Thirteen thousand labelled messages, scored twice: seconds alone, much longer beside the rest of the suite.
  }, 180_000);
});
