import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createCatalogueSearch, type CatalogueSearchResult } from "../../src/catalogue/search/index.ts";
import { compileCatalogue } from "../../src/catalogue/compile.ts";
import { fixtureCatalogue, specification } from "../align/catalogue-fixture.ts";

const snapshot = fixtureCatalogue();
const catalogueSearch = createCatalogueSearch(snapshot);
const search = (q: string, extra: Partial<Parameters<typeof catalogueSearch.search>[0]> = {}) =>
  catalogueSearch.search({ q, limit: 10, ...extra });
const ids = (results: CatalogueSearchResult[]) => results.map((result) => result.id);

describe("catalogue search", () => {
  it("finds a subtopic by its name, best first with score 1", () => {
    const [first] = search("Photosynthesis");
    expect(first).toMatchObject({
      type: "subtopic",
      id: "aqa-gcse-biology-8461.photosynthesis",
      name: "Photosynthesis",
      score: 1,
      subject: { id: "aqa-gcse-biology-8461", name: "Biology", qualification: "GCSE", examBoard: "AQA" },
      topic: { id: "aqa-gcse-biology-8461.bioenergetics", name: "Bioenergetics" },
    });
  });

  it("matches other forms of a word through stemming", () => {
    expect(ids(search("photosynthesising")).slice(0, 1)).toEqual(["aqa-gcse-biology-8461.photosynthesis"]);
    expect(ids(search("electrolyse"))[0]).toBe("aqa-gcse-chemistry-8462.electrolysis");
    expect(ids(search("neutralising acids"))[0]).toBe("aqa-gcse-chemistry-8462.acids-and-alkalis");
  });

  it("tolerates typing mistakes", () => {
    expect(ids(search("photosynthsis"))[0]).toBe("aqa-gcse-biology-8461.photosynthesis");
    expect(ids(search("mitossis"))[0]).toBe("aqa-gcse-biology-8461.cell-division");
    expect(ids(search("pythagorus"))[0]).toBe("edexcel-gcse-maths-1ma1.pythagoras");
  });

  it("matches the word still being typed by prefix", () => {
    expect(ids(search("electrol"))[0]).toBe("aqa-gcse-chemistry-8462.electrolysis");
    expect(ids(search("respirat"))[0]).toBe("aqa-gcse-biology-8461.respiration");
    expect(ids(search("simultan"))[0]).toBe("edexcel-gcse-maths-1ma1.simultaneous-equations");
  });

  it("understands common classroom abbreviations and synonyms", () => {
    expect(ids(search("genetic material"))[0]).toBe("aqa-gcse-biology-8461.dna-and-the-genome");
    expect(ids(search("sohcahtoa"))[0]).toBe("edexcel-gcse-maths-1ma1.trigonometry");
    expect(ids(search("central processing unit"))[0]).toBe("ocr-gcse-computer-science-j277.cpu");
  });

  it("ranks a name match above a keyword match above a description match", () => {
    const fields = createCatalogueSearch(
      compileCatalogue([
        specification("aqa-gcse-geology-0001", "Geology", "GCSE", "aqa", "0001", [
          [
            "rocks",
            "Rocks",
            [
              ["in-description", "Sedimentary layers", "How zeolites and other minerals form in layers of rock.", ["strata", "sediment", "deposition"]],
              ["in-keywords", "Mineral catalysts", "Porous minerals used to speed up industrial reactions.", ["zeolites", "pores", "catalysis"]],
              ["in-name", "Zeolites", "Aluminosilicate frameworks with regular channels and cages.", ["framework", "channels", "cages"]],
            ],
          ],
        ]),
      ]),
    );
    expect(ids(fields.search({ q: "zeolites", limit: 5, type: "subtopic" }))).toEqual([
      "aqa-gcse-geology-0001.in-name",
      "aqa-gcse-geology-0001.in-keywords",
      "aqa-gcse-geology-0001.in-description",
    ]);
  });

  it("prefers entries matching every word of the query", () => {
    expect(ids(search("cell cycle chromosomes"))[0]).toBe("aqa-gcse-biology-8461.cell-division");
    expect(ids(search("active transport"))[0]).toBe("aqa-gcse-biology-8461.transport-in-cells");
  });

  it("returns subjects and topics as well as subtopics", () => {
    const biology = search("biology");
    expect(biology[0]).toMatchObject({ type: "subject", id: "aqa-gcse-biology-8461", topic: null });
    expect(search("ecology", { type: "topic" })[0]).toMatchObject({ id: "aqa-gcse-biology-8461.ecology", topic: null });
  });

  it("applies every filter", () => {
    const aLevel = search("photosynthesis", { qualification: "A-Level" });
    expect(aLevel.length).toBeGreaterThan(0);
    expect(aLevel.every((result) => result.subject.qualification === "A-Level")).toBe(true);
    expect(search("photosynthesis", { examBoardId: "edexcel" })).toEqual([]);
    const inSubject = search("equations", { subjectId: "edexcel-gcse-maths-1ma1" });
    expect(inSubject.every((result) => result.subject.id === "edexcel-gcse-maths-1ma1")).toBe(true);
    expect(inSubject.length).toBeGreaterThan(0);
    const topics = search("cell", { type: "topic" });
    expect(topics.every((result) => result.type === "topic")).toBe(true);
    expect(search("photosynthesis", { type: "subject" })).toEqual([]);
  });

  it("respects the limit", () => {
    expect(search("cell", { limit: 2 })).toHaveLength(2);
    expect(search("cell", { limit: 0 })).toEqual([]);
  });

  it("answers nothing for a query with no words or nothing found", () => {
    expect(search("   ")).toEqual([]);
    expect(search("?!")).toEqual([]);
    expect(search("zzzzqqqq")).toEqual([]);
  });

  it("breaks ties by id so the same query always gives the same order", () => {
    // Two subjects both named Biology; re-running gives identical output.
    const first = search("biology");
    expect(search("biology")).toEqual(first);
    const tied = search("biology", { type: "subject" });
    for (let index = 1; index < tied.length; index += 1) {
      const previous = tied[index - 1]!;
      const current = tied[index]!;
      if (previous.score === current.score) expect(previous.id < current.id).toBe(true);
    }
  });

  it("never throws, keeps scores in [0, 1] to 4 decimal places, sorted best first, within the limit", () => {
    const vocabulary = ["cell", "photosynth", "electro", "quadratic", "the", "of", "DNA", "mitossis", "é", "3", " "];
    const queryText = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.array(fc.constantFrom(...vocabulary), { maxLength: 8 }).map((parts) => parts.join(" ")),
    );
    fc.assert(
      fc.property(
        queryText,
        fc.integer({ min: 1, max: 50 }),
        fc.constantFrom(undefined, "subject", "topic", "subtopic"),
        (q, limit, type) => {
          const results = catalogueSearch.search({ q, limit, ...(type ? { type } : {}) });
          expect(results.length).toBeLessThanOrEqual(limit);
          results.forEach((result, index) => {
            expect(result.score).toBeGreaterThanOrEqual(0);
            expect(result.score).toBeLessThanOrEqual(1);
            expect(Math.round(result.score * 10_000)).toBeCloseTo(result.score * 10_000, 6);
            if (type) expect(result.type).toBe(type);
            const previous = results[index - 1];
            if (previous) expect(previous.score).toBeGreaterThanOrEqual(result.score);
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
