import { describe, expect, it } from "vitest";
import { categoryGates, detectionRules } from "../../src/safeguarding/detection-rules.ts";
import { classifierClasses, type ClassifierModel } from "../../src/safeguarding/classifier.ts";
import {
  assessConversation,
  assessConversationWith,
  assessMessage,
} from "../../src/safeguarding/detector.ts";
import { normalise } from "../../src/safeguarding/normalise.ts";
import type { ChatMessage } from "../../src/tutor/messages.ts";
import { loadLabelledCases } from "../../evaluation/safeguarding.ts";

function categoryOf(text: string): string | null {
  return assessMessage(text)?.category ?? null;
}

describe("assessMessage: each category, with slang and misspellings", () => {
  it.each([
    ["i just necked a whole bottle of pills", "immediate_danger"],
    ["kms fr", "self_harm_suicide"],
    ["tbh im thinkin of unaliving myslef", "self_harm_suicide"],
    ["everybody would honestly be happier without me", "self_harm_suicide"],
    ["started cuttin again last nite", "self_harm_suicide"],
    ["my uncle says its our little secret", "sexual_exploitation_grooming"],
    ["some guy on insta keeps asking me for nudez", "sexual_exploitation_grooming"],
    ["my stepdad slapped me again", "abuse_neglect"],
    ["my parents are making me get married in the summer", "honour_based_abuse"],
    ["the olders want me to carry a package for them", "criminal_exploitation"],
    ["these lads said theyre gonna shank me", "serious_violence"],
    ["my dad punched my mum last night", "domestic_abuse"],
    ["a guy on discord keeps trying to recruit me to join them and fight", "radicalisation_extremism"],
    ["havent eaten for three days", "eating_disorder"],
    ["i get high every day before school", "substance_misuse"],
    ["i keep getting picked on at school", "bullying"],
    ["feelin so worthless", "mental_health_distress"],
  ])("%s → %s", (text, category) => {
    expect(categoryOf(text)).toBe(category);
  });

  it("sees through spaced-out letters, digits for letters and look-alike characters", () => {
    expect(categoryOf("k i l l  m y s e l f")).toBe("self_harm_suicide");
    expect(categoryOf("i w4nt t0 d1e")).toBe("self_harm_suicide");
    expect(categoryOf("i wаnt to diе")).toBe("self_harm_suicide");
  });
});

describe("assessMessage: academic discussion and idioms are not flagged", () => {
  it.each([
    "Why does Juliet kill herself in Romeo and Juliet?",
    "I'm writing an essay on suicide in Romeo and Juliet",
    "What caused so many deaths in the First World War?",
    "How do drugs like cocaine change dopamine levels? It's for biology",
    "In sociology, why are knife crime statistics higher in cities?",
    "Radicalisation is our citizenship topic this term, can you explain it?",
    "this homework is killing me",
    "I could murder a pizza",
    "I'm dying to know my results",
    "my phone died mid-essay",
    "I'm starving, quick question about fractions",
    "I'm cutting out shapes for my DT project",
    "I would never kill myself, but how does the poet present despair?",
  ])("%s", (text) => {
    expect(assessMessage(text)).toBeNull();
  });

  it("ignores a quoted line in a literature question", () => {
    expect(
      assessMessage('The speaker says "I want to die" in the poem. How is despair presented?'),
    ).toBeNull();
  });
});

describe("assessMessage: 'me' for 'my' before a person", () => {
  it.each([
    ["me dad battered me mam last night", "domestic_abuse"],
    ["me stepdad choked me mam", "domestic_abuse"],
    ["me mam slapped me again", "abuse_neglect"],
  ])("%s → %s", (text, category) => {
    expect(categoryOf(text)).toBe(category);
  });
});

describe("severity and precedence", () => {
  it("puts risk to life above everything else in the same message", () => {
    const assessment = assessMessage("I'm being bullied every day and I want to kill myself");
    expect(assessment).toMatchObject({ category: "self_harm_suicide", severity: "high" });
  });

  it("turns a plan with a time into immediate danger with 999 first", () => {
    const assessment = assessMessage("im going to kill myself tonight");
    expect(assessment?.category).toBe("immediate_danger");
    expect(assessment?.resources[0]?.contact).toContain("999");
  });

  it("treats past self-harm as medium and current self-harm as high", () => {
    expect(assessMessage("I used to cut myself in year 8 but I stopped")?.severity).toBe("medium");
    expect(assessMessage("I've been cutting myself again")?.severity).toBe("high");
  });

  it("gives body-image worries a low severity", () => {
    expect(assessMessage("i hate my body")).toMatchObject({ category: "eating_disorder", severity: "low" });
  });

  it("names Childline, Samaritans and Shout for suicidal thoughts", () => {
    const names = assessMessage("i want to die")?.resources.map((resource) => resource.name) ?? [];
    expect(names).toEqual(expect.arrayContaining(["Childline", "Samaritans", "Shout"]));
  });

  it("names CEOP for online sexual abuse", () => {
    const names = assessMessage("a man online is blackmailing me with my nudes")?.resources.map(
      (resource) => resource.name,
    );
    expect(names).toContain("CEOP (National Crime Agency)");
  });
});

describe("assessConversation: context from earlier turns", () => {
  const earlier: ChatMessage[] = [
    { role: "user", content: "i want to die" },
    { role: "assistant", content: "I'm really sorry you feel like this." },
  ];

  it("reads 'tonight' after a disclosure as immediate danger", () => {
    expect(assessConversation([...earlier, { role: "user", content: "tonight" }])?.category).toBe(
      "immediate_danger",
    );
  });

  it("keeps the concern when the caller answers 'yes'", () => {
    expect(assessConversation([...earlier, { role: "user", content: "yeah" }])?.category).toBe(
      "self_harm_suicide",
    );
  });

  it("reads 'no' to 'are you safe?' as immediate danger", () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "everything is awful" },
      { role: "assistant", content: "I'm worried about you. Are you safe right now?" },
      { role: "user", content: "no" },
    ];
    expect(assessConversation(messages)?.category).toBe("immediate_danger");
  });

  it("does not carry a literature question into a 'yes'", () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "Why does Romeo kill himself?" },
      { role: "assistant", content: "He thinks Juliet is dead. Shall we look at fate?" },
      { role: "user", content: "yes" },
    ];
    expect(assessConversation(messages)).toBeNull();
  });

  it("moves on once the caller asks about schoolwork again", () => {
    expect(
      assessConversation([...earlier, { role: "user", content: "can you explain photosynthesis" }]),
    ).toBeNull();
  });

  it("returns null for an empty conversation", () => {
    expect(assessConversation([])).toBeNull();
  });
});

/** A classifier with no features that is certain of "no concern" and, unless told otherwise, of no alarm. */
function certainModel(alarmBias = -50): ClassifierModel {
  const zeros = classifierClasses.map(() => 0);
  return {
    trainedOn: "",
    classes: classifierClasses,
    threshold: 0.995,
    highThreshold: 0.3,
    alarmThreshold: 0.4,
    alarmMinConcern: 0.3,
    bias: [50, ...zeros.slice(1)],
    weights: {},
    severityBias: 0,
    severityWeights: {},
    alarmBias,
    alarmWeights: {},
    highCategoryBias: zeros,
    highCategoryWeights: {},
  };
}

describe("the classifier overruling a rule match", () => {
  const user = (content: string): ChatMessage[] => [{ role: "user", content }];

  it("clears one no direct disclosure rule made when it is certain there is no concern", () => {
    for (const content of [
      "coach made us do suicides at training and my legs are dead",
      "i cut my thumb chopping onions and there was blood everywhere",
    ]) {
      expect(assessMessage(content)?.severity).toBe("high");
      expect(assessConversationWith(certainModel(), user(content))).toBeNull();
    }
  });

  it("never overrules a direct first-person disclosure", () => {
    for (const [content, category] of [
      ["i want to kill myself", "self_harm_suicide"],
      ["my dad hits me", "abuse_neglect"],
    ] as const) {
      const assessment = assessConversationWith(certainModel(), user(content));
      expect(assessment?.category).toBe(category);
      expect(assessment?.severity).toBe("high");
    }
  });

  it("keeps the rule match when the alarm head is not sure too", () => {
    const content = "coach made us do suicides at training and my legs are dead";
    expect(assessConversationWith(certainModel(0), user(content))?.severity).toBe("high");
  });

  it("lets it move a direct suicidal disclosure to immediate danger, and to nothing else", () => {
    const sure = (category: string): ClassifierModel => {
      const model = certainModel(50);
      const at = classifierClasses.indexOf(category as (typeof classifierClasses)[number]);
      model.bias = classifierClasses.map((_, index) => (index === at ? 50 : 0));
      model.highCategoryBias = classifierClasses.map((_, index) => (index === at ? 50 : 0));
      model.severityBias = 50;
      return model;
    };
    const content = "i want to kill myself";
    expect(assessConversationWith(sure("immediate_danger"), user(content))?.category).toBe(
      "immediate_danger",
    );
    expect(assessConversationWith(sure("abuse_neglect"), user(content))?.category).toBe("self_harm_suicide");
    expect(assessConversationWith(sure("immediate_danger"), user("my dad hits me"))?.category).toBe(
      "abuse_neglect",
    );
  });

  it("never overrules an answer to a check-in question, which it cannot read", () => {
    const assessment = assessConversationWith(certainModel(), [
      { role: "user", content: "can we stop for a bit" },
      { role: "assistant", content: "Of course. Can I ask, are you safe right now?" },
      { role: "user", content: "no" },
    ]);
    expect(assessment?.category).toBe("immediate_danger");
  });
});

describe("category gates", () => {
  it("never hide a rule match in the labelled set", async () => {
    const cases = await loadLabelledCases();
    const texts = cases.flatMap((item) =>
      item.text !== undefined ? [item.text] : (item.messages ?? []).map((message) => message.content),
    );
    for (const text of texts) {
      const normalised = normalise(text).text;
      for (const rule of detectionRules) {
        if ([...normalised.matchAll(rule.pattern)].length > 0) {
          expect(categoryGates[rule.category].test(normalised), `${rule.id} on "${text}"`).toBe(true);
        }
      }
    }
  });
});
