import { describe, expect, it } from "vitest";
import { raiseForBodyInDanger, settleBoundaries } from "../../src/safeguarding/boundaries.ts";
import { normalise } from "../../src/safeguarding/normalise.ts";
import type { SafeguardingCategory, Severity } from "../../src/safeguarding/taxonomy.ts";

/** The category settled for a finding the classifier might have named, given the caller's words. */
function settled(
  named: SafeguardingCategory,
  latest: string,
  earlier = "",
  severity: Severity = "high",
): SafeguardingCategory {
  return settleBoundaries(
    { category: named, severity },
    normalise(latest).text,
    () => normalise(earlier).text,
  ).category;
}

describe("settleBoundaries: who was hurt", () => {
  it.each([
    ["my step mum kicked me down the stairs", "abuse_neglect"],
    ["her boyfriend threw a mug at my head", "abuse_neglect"],
    ["i got battered by my uncle for being late", "abuse_neglect"],
    ["my dad slammed mum into the fridge last night", "domestic_abuse"],
    ["mums got another black eye and she says she fell", "domestic_abuse"],
    ["my girlfriend punched me when i went out without her", "domestic_abuse"],
    ["i keep getting hit by my bf when he is drunk", "domestic_abuse"],
    // Hurt along with an adult: abuse comes first by precedence.
    ["my stepdad was hitting my mum and then he punched me too", "abuse_neglect"],
    ["he beats my nan and me", "abuse_neglect"],
    ["my uncle hit my aunty again last night. he never hit me but i am scared for her", "domestic_abuse"],
    ["my husband shoved me into the wardrobe, i am 18", "domestic_abuse"],
    ["my girlfriend slammed the door on my hand on purpose", "domestic_abuse"],
    ["my brother had my mum by the throat over money", "domestic_abuse"],
  ] as const)("%s → %s, whichever of the two was named", (text, expected) => {
    expect(settled("abuse_neglect", text)).toBe(expected);
    expect(settled("domestic_abuse", text)).toBe(expected);
  });

  it("reads 'he' through the earlier turns: the caller's own partner", () => {
    expect(settled("abuse_neglect", "he shoved me into the wall at the bus stop", "my boyfriend is 18")).toBe(
      "domestic_abuse",
    );
    // ...but a carer named in the latest message is who did it, whoever was mentioned before.
    expect(settled("domestic_abuse", "my dad shoved me into the wall", "my boyfriend is 18")).toBe(
      "abuse_neglect",
    );
  });

  it("reads the earlier turns only when the latest message leaves who did it unsaid", () => {
    let reads = 0;
    const earlier = () => {
      reads += 1;
      return normalise("my boyfriend is 18").text;
    };
    const high = { category: "abuse_neglect", severity: "high" } as const;
    settleBoundaries(high, normalise("my dad shoved me into the wall").text, earlier);
    settleBoundaries(high, normalise("two lads are outside the door right now").text, earlier);
    expect(reads).toBe(0);
    settleBoundaries(high, normalise("he shoved me into the wall").text, earlier);
    expect(reads).toBe(1);
  });

  it("does not read a mother's partner, or a partner only mentioned, as the caller's own", () => {
    expect(settled("domestic_abuse", "my mums boyfriend slaps me when she is at work")).toBe("abuse_neglect");
    expect(settled("domestic_abuse", "my dad found out i have a girlfriend and he hit me")).toBe(
      "abuse_neglect",
    );
  });

  it("leaves a message that does not say who was hurt as it was named", () => {
    expect(settled("domestic_abuse", "it is really bad at home and the police came again")).toBe(
      "domestic_abuse",
    );
    expect(settled("abuse_neglect", "it is really bad at home and the police came again")).toBe(
      "abuse_neglect",
    );
  });
});

describe("settleBoundaries: harm under way", () => {
  it.each([
    ["my stepdad is on the stairs with his belt and he said he is not finished", "abuse_neglect"],
    ["im hiding in the wardrobe, my uncle is banging on the door", "domestic_abuse"],
    ["two lads with a blade are outside the door right now", "serious_violence"],
  ] as const)("%s (named %s) → immediate_danger", (text, named) => {
    expect(settled(named, text)).toBe("immediate_danger");
  });

  it("leaves a fear of what is to come, or a lower severity, alone", () => {
    expect(settled("abuse_neglect", "dont want to go home tonight, last time he hit me with the belt")).toBe(
      "abuse_neglect",
    );
    expect(settled("serious_violence", "they said they are coming for me next week with knives")).toBe(
      "serious_violence",
    );
    expect(settled("abuse_neglect", "he is at the door right now", "", "medium")).toBe("abuse_neglect");
  });
});

describe("settleBoundaries: whose voice speaks of death", () => {
  it("being told to kill yourself is bullying", () => {
    expect(
      settled("self_harm_suicide", "people in my year keep messaging me saying i should kill myself"),
    ).toBe("bullying");
    expect(settled("self_harm_suicide", "the whole group chat says kys to me every night")).toBe("bullying");
    // Their words, quoted, are not the caller's own.
    expect(
      settled(
        "self_harm_suicide",
        'someone made a fake account posting "i want to die" and everyone comments do it then to me',
      ),
    ).toBe("bullying");
  });

  it("agreeing with them is thoughts of suicide", () => {
    expect(
      settled("bullying", "they keep telling me to kill myself and honestly i think they are right"),
    ).toBe("self_harm_suicide");
    expect(settled("bullying", "everyone says i should kms. maybe i will")).toBe("self_harm_suicide");
  });

  it("the caller's own mind telling them is not bullying", () => {
    expect(settled("self_harm_suicide", "my head keeps telling me to kill myself")).toBe("self_harm_suicide");
  });
});

describe("settleBoundaries: when", () => {
  it.each([
    "i already took about 20 of them, feeling really sick",
    "ive cut too deep and its not stopping",
    "it will all be over before morning, i have said my goodbyes",
  ])("%s → immediate_danger", (text) => {
    expect(settled("self_harm_suicide", text)).toBe("immediate_danger");
  });

  it("an overdose in the past, or thoughts with 'not today', stay self-harm and suicide", () => {
    expect(settled("self_harm_suicide", "i took an overdose a few months ago and i still want to die")).toBe(
      "self_harm_suicide",
    );
    expect(settled("immediate_danger", "i really do want to die. not today, just all the time")).toBe(
      "self_harm_suicide",
    );
  });

  it("never moves an overdose already taken back from immediate danger", () => {
    expect(settled("immediate_danger", "i took all of them. i want to die, not yet feeling anything")).toBe(
      "immediate_danger",
    );
    expect(
      settled(
        "immediate_danger",
        "i have taken the pills because i want to die. not going to do anything else",
      ),
    ).toBe("immediate_danger");
  });

  it("leaves an immediate danger that is not about the caller's own life alone", () => {
    expect(settled("immediate_danger", "he is outside the door, not yet inside")).toBe("immediate_danger");
  });
});

describe("raiseForBodyInDanger: the line between medium and high", () => {
  const severityOf = (category: SafeguardingCategory, severity: Severity, latest: string) =>
    raiseForBodyInDanger({ category, severity }, normalise(latest).text).severity;

  it.each([
    ["eating_disorder", "i hide my dinner in my sleeves and i fainted in maths today"],
    ["eating_disorder", "havent eaten in three days and i still feel huge"],
    ["eating_disorder", "nothing but water for 5 days now, my vision keeps going grey"],
    ["eating_disorder", "not eaten anything since the weekend apart from gum"],
    ["substance_misuse", "took two of whatever they were selling and my heart is racing and i cant breathe"],
    ["substance_misuse", "drank loads at the party and my lips went blue, i think im ok now"],
  ] as const)("raises %s when the body is in danger: %s", (category, latest) => {
    expect(severityOf(category, "medium", latest)).toBe("high");
    expect(severityOf(category, "low", latest)).toBe("high");
  });

  it.each([
    ["eating_disorder", "i skip lunch most days to lose weight"],
    ["eating_disorder", "i count every calorie and feel guilty after tea"],
    ["substance_misuse", "i smoke weed most nights to get to sleep"],
  ] as const)("leaves %s alone without a sign of danger: %s", (category, latest) => {
    expect(severityOf(category, "medium", latest)).toBe("medium");
  });

  it("moves only eating disorders and substance misuse, never another category", () => {
    expect(severityOf("bullying", "medium", "they pushed me so hard i nearly passed out")).toBe("medium");
    expect(severityOf("mental_health_distress", "medium", "i get so anxious i feel faint")).toBe("medium");
    // Days without food is the eating-disorder line only.
    expect(severityOf("substance_misuse", "medium", "not eaten in 3 days cos of the comedown")).toBe(
      "medium",
    );
  });
});
