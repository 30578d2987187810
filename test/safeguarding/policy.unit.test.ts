import { describe, expect, it } from "vitest";
import { safeguardingDecision } from "../../src/safeguarding/policy.ts";
import { safeguardingReply } from "../../src/safeguarding/replies.ts";
import {
  buildAssessment,
  categoryDefinitions,
  safeguardingCategories,
  severities,
  supportServices,
  takesSeverity,
} from "../../src/safeguarding/taxonomy.ts";

describe("safeguardingDecision", () => {
  it("continues when nothing was found", () => {
    expect(safeguardingDecision(null)).toEqual({ action: "continue" });
  });

  it("stops tutoring for high severity, uncharged, with the event and a reply", () => {
    const decision = safeguardingDecision(buildAssessment("self_harm_suicide", "high"));
    expect(decision).toMatchObject({ action: "stop_tutoring", finishReason: "safeguarding", chargePence: 0 });
    if (decision.action !== "stop_tutoring") throw new Error("expected stop");
    expect(decision.event).toMatchObject({
      type: "safeguarding",
      category: "self_harm_suicide",
      severity: "high",
    });
    expect(decision.reply).toContain("0800 1111");
  });

  it("lets the tutor continue with a supportive line for medium and low", () => {
    for (const severity of ["medium", "low"] as const) {
      const decision = safeguardingDecision(buildAssessment("bullying", severity));
      expect(decision.action).toBe("continue_with_support");
      if (decision.action === "continue_with_support") expect(decision.supportLine).toContain("Childline");
    }
  });
});

describe("safeguardingReply", () => {
  it("names every service it lists, and 999 when danger may be immediate", () => {
    const reply = safeguardingReply(buildAssessment("immediate_danger", "high"));
    expect(reply).toContain("999");
    expect(reply).toContain("Samaritans");
    expect(reply).toContain("trust");
  });

  it("never mentions charges or the tutor's price", () => {
    for (const category of safeguardingCategories) {
      for (const severity of severities) {
        expect(safeguardingReply(buildAssessment(category, severity))).not.toMatch(/charge|pence|£/i);
      }
    }
  });
});

describe("taxonomy", () => {
  it("ships only https addresses", () => {
    for (const service of Object.values(supportServices))
      expect(service.url.startsWith("https://")).toBe(true);
  });

  it("includes the required national services", () => {
    const contacts = Object.values(supportServices)
      .map((service) => service.contact)
      .join(" ");
    for (const number of ["0800 1111", "116 123", "85258", "999"]) expect(contacts).toContain(number);
    expect(Object.values(supportServices).some((service) => service.url.includes("ceop.police.uk"))).toBe(
      true,
    );
  });

  it("defines every category", () => {
    expect(Object.keys(categoryDefinitions).sort()).toEqual([...safeguardingCategories].sort());
  });

  it("knows which levels each category takes, so no finding names a level the taxonomy does not use", () => {
    expect(severities.filter((severity) => takesSeverity("immediate_danger", severity))).toEqual(["high"]);
    expect(severities.filter((severity) => takesSeverity("mental_health_distress", severity))).toEqual([
      "low",
      "medium",
    ]);
    expect(severities.filter((severity) => takesSeverity("bullying", severity))).toEqual([
      "low",
      "medium",
      "high",
    ]);
    for (const category of safeguardingCategories)
      expect(severities.some((severity) => takesSeverity(category, severity))).toBe(true);
  });

  it("gives each category one unbroken run of levels, so a level it lacks has one nearest level it takes", () => {
    for (const category of safeguardingCategories) {
      const ranks = severities.flatMap((severity, rank) => (takesSeverity(category, severity) ? [rank] : []));
      expect(ranks.at(-1)! - ranks[0]! + 1).toBe(ranks.length);
    }
  });
});
