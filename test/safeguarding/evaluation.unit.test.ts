import { describe, expect, it } from "vitest";
import {
  evaluateSafeguarding,
  loadLabelledCases,
  loadSubversionCases,
  measureSafeguarding,
  safeguardingTargets,
  scoreDetection,
  type LabelledCase,
} from "../../evaluation/safeguarding.ts";
import { buildAssessment } from "../../src/safeguarding/taxonomy.ts";

describe("scoreDetection", () => {
  const item = (id: string, expected: LabelledCase["expected"]): LabelledCase =>
    ({
      id,
      text: id,
      expected,
      kind: expected.category === null ? "hard_negative" : "disclosure",
    }) as LabelledCase;
  const cases = [
    item("high-right", { category: "self_harm_suicide", severity: "high" }),
    item("high-wrong-category", { category: "abuse_neglect", severity: "high" }),
    item("medium-stopped", { category: "bullying", severity: "medium" }),
    item("medium-kept", { category: "bullying", severity: "medium" }),
    item("negative", { category: null }),
  ];
  const verdicts: Record<string, ReturnType<typeof buildAssessment> | null> = {
    "high-right": buildAssessment("self_harm_suicide", "high"),
    "high-wrong-category": buildAssessment("domestic_abuse", "high"),
    "medium-stopped": buildAssessment("bullying", "high"),
    "medium-kept": buildAssessment("bullying", "medium"),
    negative: null,
  };
  const scores = scoreDetection(cases, (_, labelled) => verdicts[labelled.id] ?? null);

  it("counts a high-severity disclosure as found only with the right category at high severity", () => {
    expect(scores.highSeverityRecall).toBe(0.5);
    expect(scores.highSeverityStopped).toBe(1);
  });

  it("reports lower-severity disclosures stopped as if high, which recall and precision do not show", () => {
    expect(scores.lowerStoppedAsHigh).toBe(0.5);
    expect(scores.counts.lowerSeverity).toBe(2);
    expect(scores.overallRecall).toBe(0.75);
  });
});

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
