import { describe, expect, it } from "vitest";
import { collectReply, type TutorRequest, type TutorSelection } from "../../src/tutor/engine.ts";
import type { ChatMessage, TeachingStyle } from "../../src/tutor/messages.ts";
import { createOfflineTutor } from "../../src/tutor/offline-tutor.ts";
import { createNoteRetriever } from "../../src/tutor/retrieval.ts";
import { sentences } from "../../src/tutor/text.ts";
import { biologyId, sampleCatalogue } from "./catalogue-fixture.ts";

const catalogue = sampleCatalogue();
const retriever = createNoteRetriever(catalogue);
const tutor = createOfflineTutor({ catalogue });
const biologyGenie: TutorSelection = { kind: "genie", subject: catalogue.subjectById.get(biologyId)! };

function requestFor(
  messages: ChatMessage[],
  teachingStyle: TeachingStyle,
  selection: TutorSelection = biologyGenie,
): TutorRequest {
  return {
    messages,
    tutor: selection,
    teachingStyle,
    context: retriever.retrieve({ messages, tutor: selection }),
  };
}

async function reply(
  messages: ChatMessage[],
  style: TeachingStyle,
  selection?: TutorSelection,
): Promise<string> {
  return (await collectReply(tutor, requestFor(messages, style, selection), new AbortController().signal))
    .text;
}

const osmosis: ChatMessage[] = [{ role: "user", content: "What is osmosis?" }];

describe("offline tutor", () => {
  it("streams several small text parts and then one finish with token estimates", async () => {
    const parts = [];
    for await (const part of tutor.streamReply(requestFor(osmosis, "friendly"), new AbortController().signal))
      parts.push(part);
    const texts = parts.filter((part) => part.type === "text");
    expect(texts.length).toBeGreaterThan(5);
    for (const part of texts) expect(part.text.trim().split(/\s+/).length).toBeLessThanOrEqual(4);
    const finish = parts.at(-1);
    expect(finish?.type).toBe("finish");
    expect(parts.filter((part) => part.type === "finish")).toHaveLength(1);
    const text = texts.map((part) => part.text).join("");
    if (finish?.type === "finish") {
      expect(finish.outputTokens).toBe(Math.ceil(text.length / 4));
      expect(finish.inputTokens).toBeGreaterThan(Math.ceil("What is osmosis?".length / 4));
    }
    expect(tutor.model).toBe("syllabi-offline-1");
  });

  it("friendly: warm, explains from the notes and checks understanding", async () => {
    const text = await reply(osmosis, "friendly");
    expect(text).toMatch(/^Good question!/);
    expect(text).toContain("partially permeable membrane");
    expect(text).toMatch(/Does that make sense\?/);
    expect(text).toMatch(/own words/);
  });

  it("concise: two or three sentences", async () => {
    for (const question of ["What is osmosis?", "Why do plants need light?", "What is respiration?"]) {
      const text = await reply([{ role: "user", content: question }], "concise");
      const count = sentences(text).length;
      expect(count, text).toBeGreaterThanOrEqual(2);
      expect(count, text).toBeLessThanOrEqual(3);
    }
    expect(await reply(osmosis, "concise")).toMatch(/^Osmosis means the diffusion of water/);
  });

  it("step-by-step: numbered steps in order", async () => {
    const text = await reply(osmosis, "step-by-step");
    const numbered = text.split("\n").filter((line) => /^\d+\. /.test(line));
    expect(numbered.length).toBeGreaterThanOrEqual(3);
    numbered.forEach((line, index) => expect(line.startsWith(`${index + 1}. `)).toBe(true));
    expect(numbered[0]).toContain("osmosis means");
  });

  it("socratic: asks a guiding question instead of answering", async () => {
    const text = await reply(osmosis, "socratic");
    expect(text.trim().endsWith("?")).toBe(true);
    expect(text).toMatch(/what do you think osmosis means\?/);
    expect(text).not.toContain("dilute solution to a concentrated solution");
  });

  describe("socratic follow-up uses the student's previous answer", () => {
    async function followUp(answer: string): Promise<string> {
      const first = await reply(osmosis, "socratic");
      return reply(
        [...osmosis, { role: "assistant", content: first }, { role: "user", content: answer }],
        "socratic",
      );
    }

    it("confirms a correct answer, quoting it, and moves on", async () => {
      const answer =
        "It is when water diffuses from a dilute solution to a concentrated one through a partially permeable membrane";
      const text = await followUp(answer);
      expect(text).toMatch(/^Yes, that's right/);
      expect(text).toContain(answer);
      expect(text.trim().endsWith("?")).toBe(true);
    });

    it("credits the part that is right and supplies the missing piece", async () => {
      const text = await followUp("something about water moving");
      expect(text).toMatch(/right track/);
      expect(text).toContain('"water"');
      expect(text).toContain("partially permeable membrane");
    });

    it("corrects a wrong answer against the key facts", async () => {
      const text = await followUp("it is a type of cell division");
      expect(text).toMatch(/^Not quite\. You said "it is a type of cell division"/);
      expect(text).toContain("osmosis means the diffusion of water");
    });

    it("names a common misconception when the answer repeats it", async () => {
      const first = await reply([{ role: "user", content: "How do plants make food?" }], "socratic");
      const text = await reply(
        [
          { role: "user", content: "How do plants make food?" },
          { role: "assistant", content: first },
          { role: "user", content: "they get their food from the soil" },
        ],
        "socratic",
      );
      expect(text).toContain('You said "they get their food from the soil"');
      expect(text).toMatch(/very common idea/);
      expect(text).toMatch(/photosynthesis/);
    });

    it("gives a clue when the student does not know", async () => {
      const text = await followUp("I don't know");
      expect(text).toMatch(/clue/);
      expect(text.trim().endsWith("?")).toBe(true);
    });
  });

  it("says plainly when its notes do not cover the question, and what it can help with", async () => {
    for (const style of ["friendly", "socratic", "concise", "step-by-step"] as const) {
      const text = await reply([{ role: "user", content: "Who won the football world cup in 2022?" }], style);
      expect(text).toMatch(/notes don't cover that/);
      expect(text).toContain("GCSE Biology topics such as Cell biology and Bioenergetics");
    }
    const general = await reply([{ role: "user", content: "What is the capital of Peru?" }], "friendly", {
      kind: "general",
    });
    expect(general).toContain("study skills and revision technique");
  });

  it("covers study skills for the general tutor", async () => {
    const text = await reply(
      [{ role: "user", content: "How should I revise for my exams?" }],
      "step-by-step",
      { kind: "general" },
    );
    expect(text).toMatch(/revision/i);
    expect(text.split("\n").filter((line) => /^\d+\. /.test(line)).length).toBeGreaterThanOrEqual(3);
  });

  it("greets by name", async () => {
    const selection: TutorSelection = {
      kind: "custom",
      genie: { name: "Professor Pip", subject: "GCSE Chemistry", teachingStyle: "friendly", avoidTopics: [] },
    };
    expect(await reply([{ role: "user", content: "hello" }], "friendly", selection)).toMatch(
      /^Hello! I'm Professor Pip\./,
    );
  });

  it("is deterministic", async () => {
    expect(await reply(osmosis, "friendly")).toBe(await reply(osmosis, "friendly"));
  });

  it("stops when the caller aborts", async () => {
    const controller = new AbortController();
    const received: string[] = [];
    await expect(async () => {
      for await (const part of tutor.streamReply(requestFor(osmosis, "friendly"), controller.signal)) {
        if (part.type === "text") received.push(part.text);
        if (received.length === 2) controller.abort(new Error("client went away"));
      }
    }).rejects.toThrow("client went away");
    expect(received).toHaveLength(2);
  });
});
