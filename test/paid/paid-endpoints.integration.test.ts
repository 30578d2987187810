import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balanceOf as balanceIn, fundedDeveloper as fundDeveloper } from "../support/funding.ts";
import { api, startTestApp, type TestApp } from "../support/harness.ts";

let app: TestApp;
const fundedDeveloper = (pence?: number) => fundDeveloper(app, pence);
const balanceOf = (key: string) => balanceIn(app, key);

const biologySubject = "aqa-gcse-biology-8461";

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe("POST /api/v1/align", () => {
  it("charges exactly 1p and returns scored matches best first", async () => {
    const { key } = await fundedDeveloper();
    const response = await api(app, key, "POST", "/api/v1/align", {
      subjectId: biologySubject,
      text: "Students will compare the light microscope with the electron microscope and calculate magnification.",
      limit: 3,
    });
    expect(response.status).toBe(200);
    const matches = response.json.matches as { score: number; subtopicId: string }[];
    expect(matches.length).toBeGreaterThan(0);
    expect(matches.length).toBeLessThanOrEqual(3);
    expect(matches.every((match) => match.score >= 0 && match.score <= 1)).toBe(true);
    expect([...matches].sort((a, b) => b.score - a.score)).toEqual(matches);
    expect(response.json.usage).toMatchObject({ chargedPence: 1, balancePence: 999 });
    expect(await balanceOf(key)).toBe(999);
  });

  it("refuses an unknown subject with 404 and charges nothing", async () => {
    const { key } = await fundedDeveloper();
    const response = await api(app, key, "POST", "/api/v1/align", { subjectId: "nope", text: "cells" });
    expect(response.status).toBe(404);
    expect(response.json.error).toBe("subject_not_found");
    expect(await balanceOf(key)).toBe(1000);
  });

  it("refuses unknown fields with 400 naming the field and charges nothing", async () => {
    const { key } = await fundedDeveloper();
    const response = await api(app, key, "POST", "/api/v1/align", {
      subjectId: biologySubject,
      text: "x",
      extra: 1,
    });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ error: "invalid_request", param: "extra" });
    expect(await balanceOf(key)).toBe(1000);
  });

  it("answers 402 insufficient_balance with an empty balance", async () => {
    const { key } = await fundedDeveloper(0);
    const response = await api(app, key, "POST", "/api/v1/align", {
      subjectId: biologySubject,
      text: "cells",
    });
    expect(response.status).toBe(402);
    expect(response.json.error).toBe("insufficient_balance");
  });

  it("answers 415 for a body that is not JSON, 413 over 256 KiB and invalid_json for broken JSON", async () => {
    const { key } = await fundedDeveloper();
    const wrongType = await api(app, key, "POST", "/api/v1/align", undefined, {
      "content-type": "text/plain",
    });
    expect(wrongType.status).toBe(415);
    expect(wrongType.json.error).toBe("unsupported_media_type");
    const huge = await api(app, key, "POST", "/api/v1/align", {
      subjectId: biologySubject,
      text: "a".repeat(300_000),
    });
    expect(huge.status).toBe(413);
    expect(huge.json.error).toBe("payload_too_large");
    const broken = await api(app, key, "POST", "/api/v1/align", '{"subjectId": ');
    expect(broken.status).toBe(400);
    expect(broken.json.error).toBe("invalid_json");
    expect(await balanceOf(key)).toBe(1000);
  });
});

describe("POST /api/v1/questions/generate", () => {
  it("charges 8p for a set split across types as the contract says", async () => {
    const { key } = await fundedDeveloper();
    const tree = await api(app, key, "GET", `/api/v1/subjects/${biologySubject}/tree`);
    const subtopicId = (tree.json.topics as { subtopics: { id: string }[] }[])[0]!.subtopics[0]!.id;
    const response = await api(app, key, "POST", "/api/v1/questions/generate", {
      subtopicId,
      types: ["multiple_choice", "written"],
      count: 5,
    });
    expect(response.status).toBe(200);
    const questions = response.json.questions as {
      type: string;
      options?: string[];
      correctAnswer?: string;
    }[];
    expect(questions.filter((question) => question.type === "multiple_choice")).toHaveLength(3);
    expect(questions.filter((question) => question.type === "written")).toHaveLength(2);
    for (const question of questions.filter((item) => item.type === "multiple_choice")) {
      expect(question.options).toHaveLength(4);
      expect(question.options).toContain(question.correctAnswer);
    }
    expect(response.json).toMatchObject({
      source: "subtopic",
      subtopicId,
      count: 5,
      usage: { chargedPence: 8 },
    });
    expect(await balanceOf(key)).toBe(992);
  });

  it("answers 422 topic_not_covered for a topic the offline engine cannot cover, free", async () => {
    const { key } = await fundedDeveloper();
    const response = await api(app, key, "POST", "/api/v1/questions/generate", {
      topic: "Medieval Icelandic skaldic metre",
    });
    expect(response.status).toBe(422);
    expect(response.json.error).toBe("topic_not_covered");
    expect(await balanceOf(key)).toBe(1000);
  });

  it("requires exactly one of subtopicId or topic", async () => {
    const { key } = await fundedDeveloper();
    const response = await api(app, key, "POST", "/api/v1/questions/generate", { count: 2 });
    expect(response.status).toBe(400);
    expect(response.json.error).toBe("invalid_request");
  });
});
