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
  });

  it("meets every target", async () => {
    const result = await measureSafeguarding();
    expect(result.highSeverityRecall).toBeGreaterThanOrEqual(safeguardingTargets.highSeverityRecall);
    expect(result.overallRecall).toBeGreaterThanOrEqual(safeguardingTargets.overallRecall);
    expect(result.hardNegativeFalsePositiveRate).toBeLessThanOrEqual(
      safeguardingTargets.hardNegativeFalsePositiveRate,
    );
    expect(result.subversionFailures).toEqual([]);
    const lines: string[] = [];
    expect(await evaluateSafeguarding((line) => lines.push(line))).toEqual({ passed: true });
    expect(lines.join("\n")).toContain("Recall on high severity");
  });
});
