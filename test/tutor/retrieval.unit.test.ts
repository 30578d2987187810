import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/tutor/messages.ts";
import { createNoteRetriever } from "../../src/tutor/retrieval.ts";
import { biologyId, chemistryId, sampleCatalogue } from "./catalogue-fixture.ts";

const catalogue = sampleCatalogue();
const retriever = createNoteRetriever(catalogue);
const biology = catalogue.subjectById.get(biologyId)!;
const ask = (content: string): ChatMessage[] => [{ role: "user", content }];

describe("note retrieval", () => {
  it("finds the subtopic a question is about", () => {
    expect(retriever.retrieve({ messages: ask("What is osmosis?"), tutor: { kind: "general" } })[0]?.id).toBe(
      `${biologyId}.diffusion-and-osmosis`,
    );
    expect(
      retriever.retrieve({ messages: ask("what does the mitochondria do"), tutor: { kind: "general" } })[0]
        ?.id,
    ).toBe(`${biologyId}.cell-structure`);
    expect(
      retriever.retrieve({
        messages: ask("Why do ionic compounds have high melting points?"),
        tutor: { kind: "general" },
      })[0]?.id,
    ).toBe(`${chemistryId}.ionic-bonding`);
  });

  it("matches everyday wording through the body of the notes", () => {
    expect(
      retriever.retrieve({ messages: ask("How do plants make food?"), tutor: { kind: "general" } })[0]?.id,
    ).toBe(`${biologyId}.photosynthesis`);
  });

  it("keeps a genie inside its subject", () => {
    const notes = retriever.retrieve({
      messages: ask("what is an isotope"),
      tutor: { kind: "genie", subject: biology },
    });
    expect(notes).toEqual([]);
    const inSubject = retriever.retrieve({
      messages: ask("explain aerobic respiration"),
      tutor: { kind: "genie", subject: biology },
    });
    expect(inSubject.every((note) => note.subject?.id === biologyId)).toBe(true);
    expect(inSubject[0]?.id).toBe(`${biologyId}.respiration`);
  });

  it("returns nothing for questions the notes do not cover", () => {
    expect(
      retriever.retrieve({
        messages: ask("Who won the football world cup in 2022?"),
        tutor: { kind: "general" },
      }),
    ).toEqual([]);
    expect(retriever.retrieve({ messages: ask("hi"), tutor: { kind: "general" } })).toEqual([]);
  });

  it("gives the general tutor study-skills notes", () => {
    const notes = retriever.retrieve({
      messages: ask("How should I revise for my exams?"),
      tutor: { kind: "general" },
    });
    expect(notes[0]?.source).toBe("study-skills");
  });

  it("narrows a custom genie to the subject it names", () => {
    const tutor = {
      kind: "custom" as const,
      genie: {
        name: "Chem Coach",
        subject: "GCSE Chemistry",
        teachingStyle: "friendly" as const,
        avoidTopics: [],
      },
    };
    const notes = retriever.retrieve({
      messages: ask("what is an ion and why does it have a charge"),
      tutor,
    });
    expect(notes[0]?.id).toBe(`${chemistryId}.ionic-bonding`);
    expect(notes.every((note) => note.source === "study-skills" || note.subject?.id === chemistryId)).toBe(
      true,
    );
    expect(retriever.retrieve({ messages: ask("what is osmosis"), tutor })).toEqual([]);
  });

  it("keeps a follow-up on the notes of the earlier question", () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "What is osmosis?" },
      { role: "assistant", content: "What do you think osmosis means?" },
      { role: "user", content: "water moving through a membrane" },
    ];
    expect(retriever.retrieve({ messages, tutor: { kind: "general" } })[0]?.id).toBe(
      `${biologyId}.diffusion-and-osmosis`,
    );
  });

  it("is deterministic and ranks best first", () => {
    const first = retriever.retrieve({ messages: ask("cells and respiration"), tutor: { kind: "general" } });
    const second = retriever.retrieve({ messages: ask("cells and respiration"), tutor: { kind: "general" } });
    expect(second).toEqual(first);
    for (let index = 1; index < first.length; index += 1)
      expect(first[index - 1]!.score).toBeGreaterThanOrEqual(first[index]!.score);
  });

  it("scores free-topic search with a confidence", () => {
    expect(retriever.search("photosynthesis")[0]?.confidence).toBe(1);
    expect(retriever.search("quantum chromodynamics")).toEqual([]);
  });
});
