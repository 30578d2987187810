import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createOfflineAligner, type AlignMatch } from "../../src/align/index.ts";
import { fixtureCatalogue } from "./catalogue-fixture.ts";

const aligner = createOfflineAligner(fixtureCatalogue());
const biology = "aqa-gcse-biology-8461";
const maths = "edexcel-gcse-maths-1ma1";

async function topIds(subjectId: string, text: string, limit = 3): Promise<string[]> {
  const matches = await aligner.align({ subjectId, text, limit });
  return matches.map((match) => match.subtopicId.slice(subjectId.length + 1));
}

function expectWellFormed(matches: AlignMatch[], limit: number): void {
  expect(matches.length).toBeLessThanOrEqual(limit);
  matches.forEach((match, index) => {
    expect(match.score).toBeGreaterThanOrEqual(0);
    expect(match.score).toBeLessThanOrEqual(1);
    const previous = matches[index - 1];
    if (previous) expect(previous.score).toBeGreaterThanOrEqual(match.score);
  });
}

describe("offline aligner", () => {
  it("names its engine", () => {
    expect(aligner.engine).toBe("offline-bm25");
  });

  it("ranks the subtopic a clear text is about first", async () => {
    expect(
      (await topIds(biology, "Investigating the effect of light intensity on the rate of photosynthesis"))[0],
    ).toBe("photosynthesis");
    expect(
      (
        await topIds(
          biology,
          "Osmosis practical: potato cylinders in sugar solutions of different concentration",
        )
      )[0],
    ).toBe("transport-in-cells");
    expect((await topIds(biology, "Lactic acid and the oxygen debt after a sprint"))[0]).toBe("respiration");
    expect(
      (await topIds(maths, "Solve x² + 5x + 6 = 0 by factorising, then by the quadratic formula"))[0],
    ).toBe("quadratic-equations");
    expect((await topIds(maths, "Find the gradient and y-intercept of a straight line"))[0]).toBe(
      "straight-line-graphs",
    );
  });

  it("returns the full match shape with topic names", async () => {
    const [first] = await aligner.align({
      subjectId: maths,
      text: "Pythagoras: find the hypotenuse",
      limit: 1,
    });
    expect(first).toEqual({
      subtopicId: `${maths}.pythagoras`,
      subtopicName: "Pythagoras' theorem",
      topicId: `${maths}.geometry`,
      topicName: "Geometry and measures",
      score: expect.any(Number),
    });
  });

  it("uses the school synonym map", async () => {
    expect((await topIds(biology, "What happens to genetic material when sperm meets egg?"))[0]).toBe(
      "dna-and-the-genome",
    );
    expect((await topIds(maths, "Quadratics revision"))[0]).toBe("quadratic-equations");
    expect((await topIds(maths, "SOHCAHTOA starter"))[0]).toBe("trigonometry");
  });

  it("matches a near form of a word the catalogue spells differently", async () => {
    // "photosynthetic" stems apart from "photosynthesis"; trimming a letter or two brings them together.
    expect((await topIds(biology, "photosynthetic"))[0]).toBe("photosynthesis");
  });

  it("ignores classroom noise in a long lesson plan and still finds its focus", async () => {
    const noise =
      "Learning objectives: all students will be able to describe the key ideas. Starter (10 mins): recap quiz. " +
      "Main activity: think, pair, share. Plenary: exit ticket. Homework: complete the worksheet. ";
    const focus = "Natural selection: Darwin, variation and survival of the fittest; fossils as evidence. ";
    const plan = (noise + focus).repeat(40).slice(0, 20_000);
    expect(plan.length).toBeGreaterThan(10_000);
    expect((await topIds(biology, plan))[0]).toBe("evolution");
    // The noise alone points nowhere in particular: no confident match.
    const noiseOnly = await aligner.align({ subjectId: biology, text: noise.repeat(20), limit: 3 });
    expect(noiseOnly.every((match) => match.score < 0.3)).toBe(true);
  });

  it("scores in [0, 1], best first, within the limit", async () => {
    const text = "cells, mitosis, osmosis, diffusion and the cell cycle";
    for (const limit of [1, 2, 5, 20])
      expectWellFormed(await aligner.align({ subjectId: biology, text, limit }), limit);
    const [first] = await aligner.align({ subjectId: biology, text: "Photosynthesis", limit: 1 });
    expect(first!.score).toBeGreaterThan(0.5);
  });

  it("answers nothing for an unknown subject (the caller reports it) or a text with no content words", async () => {
    expect(await aligner.align({ subjectId: "no-such-subject", text: "photosynthesis", limit: 5 })).toEqual(
      [],
    );
    expect(await aligner.align({ subjectId: biology, text: "the and of", limit: 5 })).toEqual([]);
    expect(await aligner.align({ subjectId: biology, text: "photosynthesis", limit: 0 })).toEqual([]);
  });

  it("is deterministic", async () => {
    const request = { subjectId: biology, text: "cells and organelles under the microscope", limit: 5 };
    expect(await aligner.align(request)).toEqual(await aligner.align(request));
  });

  it("never throws on any text and keeps its output well formed", async () => {
    const words = [
      "osmosis",
      "the",
      "DNA",
      "cell",
      "lesson",
      "starter",
      "photosynthesis",
      "x²",
      "🙂",
      "\n",
      "-",
    ];
    const text = fc.oneof(
      fc.string({ minLength: 1, maxLength: 500 }),
      fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 60 }).map((parts) => parts.join(" ")),
    );
    await fc.assert(
      fc.asyncProperty(text, fc.integer({ min: 1, max: 20 }), async (value, limit) => {
        expectWellFormed(await aligner.align({ subjectId: biology, text: value, limit }), limit);
      }),
      { numRuns: 200 },
    );
  });
});
