import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createDeveloper, startTestApp, testCatalogue, type TestApp } from "../support/harness.ts";

let app: TestApp;
let key: string;

beforeAll(async () => {
  app = await startTestApp();
  key = (await createDeveloper(app, { unlocked: true })).key;
});
afterAll(() => app.close());

interface SubjectBody {
  id: string;
  name: string;
  qualification: string;
  examBoard: string;
  specPointsMapped: boolean;
  genie: { shortName: string; name: string };
}

function expectDataHeaders(headers: Headers) {
  expect(headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(headers.get("cache-control")).toBe("private, no-store");
  expect(headers.get("access-control-allow-origin")).toBe("*");
  expect(headers.get("request-id")).toMatch(/^req_[0-9A-Za-z]{20}$/);
  expect(headers.get("ratelimit-policy")).toBe('"general";q=120;w=60');
  expect(headers.get("ratelimit-limit")).toBe("120");
  expect(Number(headers.get("ratelimit-remaining"))).toBeLessThan(120);
  expect(headers.get("ratelimit")).toMatch(/^"general";r=\d+;t=\d+$/);
  expect(headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
}

describe("GET /api/v1/subjects", () => {
  it("lists every subject in the contract's order, with the contract's headers", async () => {
    const catalogue = await testCatalogue();
    const response = await api(app, key, "GET", "/api/v1/subjects");
    expect(response.status).toBe(200);
    expectDataHeaders(response.headers);
    const { subjects, count } = response.json as { subjects: SubjectBody[]; count: number };
    expect(count).toBe(catalogue.subjects.length);
    expect(subjects.map((subject) => subject.id)).toEqual(catalogue.subjects.map((subject) => subject.id));
    expect(Object.keys(subjects[0]!).sort()).toEqual(
      [
        "examBoard",
        "genie",
        "id",
        "name",
        "qualification",
        "specPointsMapped",
        "specificationCode",
        "specificationUrl",
      ].sort(),
    );
  });

  it("filters by qualification and board, case-insensitively and by alias, alone or together", async () => {
    const gcse = await api(app, key, "GET", "/api/v1/subjects?qualification=gcse");
    const gcseSubjects = (gcse.json as { subjects: SubjectBody[] }).subjects;
    expect(gcseSubjects.length).toBeGreaterThan(0);
    expect(gcseSubjects.every((subject) => subject.qualification === "GCSE")).toBe(true);

    const edexcel = await api(app, key, "GET", "/api/v1/subjects?examBoard=edexcel&qualification=A-LEVEL");
    const edexcelSubjects = (edexcel.json as { subjects: SubjectBody[]; count: number }).subjects;
    expect(edexcelSubjects.length).toBeGreaterThan(0);
    expect(
      edexcelSubjects.every(
        (subject) => subject.examBoard === "Pearson Edexcel" && subject.qualification === "A-Level",
      ),
    ).toBe(true);
    expect((edexcel.json as { count: number }).count).toBe(edexcelSubjects.length);

    // The same filter spelt another way is the same answer, validator included.
    const again = await api(app, key, "GET", "/api/v1/subjects?qualification=a-level&examBoard=Pearson%20Edexcel");
    expect(again.json).toEqual(edexcel.json);
    expect(again.headers.get("etag")).toBe(edexcel.headers.get("etag"));
  });

  it("refuses an unknown filter value every time, naming the parameter and the allowed values", async () => {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const response = await api(app, key, "GET", "/api/v1/subjects?examBoard=Nonsense");
      expect(response.status).toBe(400);
      expect(response.json.error).toBe("invalid_request");
      expect(response.json.param).toBe("examBoard");
      expect(response.json.message).toContain("AQA");
      expect(response.json.requestId).toBe(response.headers.get("request-id"));
    }
  });

  it("ignores unknown query parameters", async () => {
    const plain = await api(app, key, "GET", "/api/v1/subjects?qualification=BTEC");
    const extra = await api(app, key, "GET", "/api/v1/subjects?qualification=BTEC&colour=blue");
    expect(extra.status).toBe(200);
    expect(extra.json).toEqual(plain.json);
  });
});

describe("GET /api/v1/subjects/{subjectId}/tree", () => {
  it("answers the subject's topics and subtopics in order, with counts", async () => {
    const catalogue = await testCatalogue();
    const subject = catalogue.subjects.reduce((largest, candidate) =>
      candidate.topics.length > largest.topics.length ? candidate : largest,
    );
    const response = await api(app, key, "GET", `/api/v1/subjects/${subject.id}/tree`);
    expect(response.status).toBe(200);
    expectDataHeaders(response.headers);
    const body = response.json as {
      subject: SubjectBody;
      topics: { id: string; order: number; subtopics: { id: string; description: string; order: number }[] }[];
      topicCount: number;
      subtopicCount: number;
    };
    expect(body.subject.id).toBe(subject.id);
    expect(body.topics.map((topic) => topic.id)).toEqual(subject.topics.map((topic) => topic.id));
    expect(body.topics.map((topic) => topic.order)).toEqual(subject.topics.map((_, index) => index + 1));
    expect(body.topicCount).toBe(subject.topics.length);
    expect(body.subtopicCount).toBe(subject.topics.reduce((sum, topic) => sum + topic.subtopics.length, 0));
    expect(body.topics[0]!.subtopics[0]!.description).toBe(subject.topics[0]!.subtopics[0]!.description);
  });

  it("answers 404 subject_not_found for an unknown id, every time", async () => {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const response = await api(app, key, "GET", "/api/v1/subjects/no-such-subject/tree");
      expect(response.status).toBe(404);
      expect(response.json.error).toBe("subject_not_found");
      expect(response.json.param).toBe("subjectId");
      expect(response.headers.get("etag")).toBeNull();
    }
  });

  it("refuses an over-long id with 400 invalid_request and the contract's headers", async () => {
    for (const length of [150, 5000]) {
      const response = await api(app, key, "GET", `/api/v1/subjects/${"x".repeat(length)}/tree`);
      expect(response.status).toBe(400);
      expect(response.json.error).toBe("invalid_request");
      expect(response.json.requestId).toBe(response.headers.get("request-id"));
      expect(response.headers.get("cache-control")).toBe("private, no-store");
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
    }
  });

  it("refuses a path that cannot be decoded with 400 invalid_request and the contract's headers", async () => {
    const response = await api(app, key, "GET", "/api/v1/subjects/%E0%A4%A/tree");
    expect(response.status).toBe(400);
    expect(response.json.error).toBe("invalid_request");
    expect(response.json.requestId).toBe(response.headers.get("request-id"));
    expect(response.headers.get("cache-control")).toBe("private, no-store");
  });
});

describe("GET /api/v1/subtopics/{subtopicId}/spec-points", () => {
  it("answers a mapped subtopic's references and 404 subtopic_not_found for an unknown one", async () => {
    const catalogue = await testCatalogue();
    const mapped = catalogue.subjects.find((subject) => subject.specPointsMapped)!;
    const subtopic = mapped.topics[0]!.subtopics[0]!;
    const response = await api(app, key, "GET", `/api/v1/subtopics/${subtopic.id}/spec-points`);
    expect(response.status).toBe(200);
    expectDataHeaders(response.headers);
    expect(response.json).toMatchObject({ subtopicId: subtopic.id, subjectId: mapped.id, mapped: true });
    expect(response.json.count).toBe(subtopic.specRefs.length);

    const unknown = await api(app, key, "GET", "/api/v1/subtopics/nope.nothing/spec-points");
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toBe("subtopic_not_found");
  });
});

describe("conditional requests", () => {
  it("answers 304 with the same ETag and no body when If-None-Match holds the current tag", async () => {
    const first = await fetch(`${app.baseUrl}/api/v1/subjects?qualification=GCSE`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const etag = first.headers.get("etag")!;
    await first.arrayBuffer();
    for (const ifNoneMatch of [etag, `W/${etag}`, `"something-else", ${etag}`, "*"]) {
      const again = await fetch(`${app.baseUrl}/api/v1/subjects?qualification=GCSE`, {
        headers: { authorization: `Bearer ${key}`, "if-none-match": ifNoneMatch },
      });
      expect(again.status).toBe(304);
      expect(again.headers.get("etag")).toBe(etag);
      expect(again.headers.get("cache-control")).toBe("private, no-store");
      expect(again.headers.get("request-id")).toMatch(/^req_/);
      expect(again.headers.get("ratelimit-remaining")).not.toBeNull();
      expect(await again.text()).toBe("");
    }
  });

  it("answers the full body when the tag does not match, and never a 304 before the key checks", async () => {
    const stale = await api(app, key, "GET", "/api/v1/subjects?qualification=GCSE", undefined, {
      "if-none-match": '"stale"',
    });
    expect(stale.status).toBe(200);
    expect((stale.json as { count: number }).count).toBeGreaterThan(0);

    const locked = (await createDeveloper(app)).key;
    const refused = await api(app, locked, "GET", "/api/v1/subjects", undefined, { "if-none-match": "*" });
    expect(refused.status).toBe(402);
    expect(refused.json.error).toBe("topup_required");
    const anonymous = await api(app, null, "GET", "/api/v1/subjects", undefined, { "if-none-match": "*" });
    expect(anonymous.status).toBe(401);
  });
});
