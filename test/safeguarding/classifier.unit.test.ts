import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { loadLabelledCases } from "../../evaluation/safeguarding.ts";
import { trainingDataHash } from "../../evaluation/train-safeguarding.ts";
import {
  classifierClasses,
  classifierInput,
  classify,
  featuresOf,
  type ClassifierModel,
} from "../../src/safeguarding/classifier.ts";

const model = JSON.parse(
  await readFile(new URL("../../src/safeguarding/classifier-model.json", import.meta.url), "utf8"),
) as ClassifierModel;

/** A hand-made model: no weights, thresholds of one half and a quiet alarm head, unless `overrides` says otherwise. */
function toyModel(overrides: Partial<ClassifierModel>): ClassifierModel {
  return {
    trainedOn: "",
    classes: classifierClasses,
    threshold: 0.5,
    highThreshold: 0.5,
    alarmThreshold: 0.5,
    alarmMinConcern: 0.5,
    bias: classifierClasses.map(() => 0),
    weights: {},
    severityBias: 0,
    severityWeights: {},
    alarmBias: -5,
    alarmWeights: {},
    highCategoryBias: classifierClasses.map(() => 0),
    highCategoryWeights: {},
    ...overrides,
  };
}

describe("safeguarding classifier", () => {
  it("was trained on the current development data (run `npm run safeguarding:train` after changing it)", async () => {
    expect(model.trainedOn).toBe(trainingDataHash(await loadLabelledCases("development")));
  });

  it("was never shown the held-out set", async () => {
    const heldOut = await loadLabelledCases("held-out");
    const development = await loadLabelledCases("development");
    const developmentTexts = new Set(
      development.map((item) =>
        classifierInput(item.messages ?? [{ role: "user", content: item.text ?? "" }]),
      ),
    );
    const leaked = heldOut.filter((item) =>
      developmentTexts.has(classifierInput(item.messages ?? [{ role: "user", content: item.text ?? "" }])),
    );
    expect(leaked.map((item) => item.id)).toEqual([]);
  });

  it("reads a short follow-up together with the caller's earlier turns", () => {
    const input = classifierInput([
      { role: "user", content: "i dont see the point in anything anymore" },
      {
        role: "assistant",
        content: "I'm sorry you're feeling like this. Do you mean you're thinking of ending your life?",
      },
      { role: "user", content: "yeah tonight" },
    ]);
    expect(input).toContain("point in anything");
    expect(input).toContain("yeah tonight");
  });

  it("never names a category at a level the taxonomy does not use: immediate danger is always high", () => {
    // A model sure of immediate danger but not of high severity (no alarm either).
    const unsureOfSeverity = toyModel({
      highThreshold: 0.9,
      alarmThreshold: 0.9,
      alarmMinConcern: 0.9,
      bias: classifierClasses.map((name) => (name === "immediate_danger" ? 5 : 0)),
      severityBias: -5,
    });
    const { finding } = classify(unsureOfSeverity, [{ role: "user", content: "anything at all" }]);
    expect(finding).toMatchObject({ category: "immediate_danger", severity: "high" });
  });

  describe("a disclosure inside a homework request", () => {
    // A toy model: one word of self-harm, and one study word that outweighs it when both are read together.
    const selfHarm = classifierClasses.indexOf("self_harm_suicide");
    const toy = toyModel({
      bias: classifierClasses.map((_, index) => (index === 0 ? 0 : -3)),
      weights: { "w:zorp": [[selfHarm, 12]], "w:theorem": [[selfHarm, -20]] },
      severityWeights: { "w:zorp": 5 },
      alarmWeights: { "w:zorp": 12, "w:theorem": -20 },
    });
    const verdictOn = (content: string) => classify(toy, [{ role: "user", content }]).finding;

    it("is read sentence by sentence when the whole message outweighs it", () => {
      expect(
        verdictOn("what does the theorem say about trade? i keep thinking zorp every night"),
      ).toMatchObject({
        category: "self_harm_suicide",
        severity: "high",
      });
      expect(verdictOn("what does the theorem say about zorp")).toBeNull();
    });

    it("only in the caller's own voice, and not when the sentence itself is schoolwork", () => {
      expect(
        verdictOn("what does the theorem say about trade? she keeps thinking zorp every night"),
      ).toBeNull();
      expect(verdictOn('what does the theorem say? i wrote "zorp every night" in my notes')).toBeNull();
      expect(verdictOn("what does the theorem say? i think zorp is the theme of the poem")).toBeNull();
    });
  });

  it("shares word fragments between a misspelling and the word, so it generalises past typos", () => {
    const shared = featuresOf("sucidal").filter((feature) => featuresOf("suicidal").includes(feature));
    expect(shared.length).toBeGreaterThan(2);
  });

  it("stays quiet on ordinary study questions", () => {
    for (const content of [
      "can you help me factorise x^2 + 5x + 6",
      "what is the difference between mitosis and meiosis",
      "give me three quotes about ambition in macbeth",
    ]) {
      expect(classify(model, [{ role: "user", content }]).finding).toBeNull();
    }
  });
});
