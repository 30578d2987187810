import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDeveloper, startTestApp, testCatalogue, type TestApp } from "../support/harness.ts";

const metricsToken = "a-metrics-token-for-the-lane-tests";
/** Low enough to reach within a test; both paths count against it. */
const generalPerMinute = 40;

let app: TestApp;
let key: string;
let paths: string[];

beforeAll(async () => {
  app = await startTestApp({
    METRICS_TOKEN: metricsToken,
    RATE_LIMIT_GENERAL_PER_MIN: String(generalPerMinute),
  });
  key = (await createDeveloper(app, { unlocked: true })).key;
  const catalogue = await testCatalogue();
  const subject = catalogue.subjects[0]!;
  const mapped = [...catalogue.subtopicById.values()].find(
    (subtopic) => catalogue.subjectById.get(subtopic.subjectId)?.specPointsMapped,
  )!;
  paths = [
    "/api/v1/subjects",
    `/api/v1/subjects/${subject.id}/tree`,
    `/api/v1/subtopics/${mapped.id}/spec-points`,
  ];
});
afterAll(() => app.close());

interface Answer {
  status: number;
  headers: Map<string, string>;
  body: Buffer;
}

async function get(path: string, headers: Record<string, string> = {}, withKey = key): Promise<Answer> {
  const response = await fetch(`${app.baseUrl}${path}`, {
    headers: { ...(withKey ? { authorization: `Bearer ${withKey}` } : {}), ...headers },
  });
  return {
    status: response.status,
    headers: new Map(response.headers),
    body: Buffer.from(await response.arrayBuffer()),
  };
}

async function laneAnswers(): Promise<number> {
  const response = await fetch(`${app.baseUrl}/metrics`, {
    headers: { authorization: `Bearer ${metricsToken}` },
  });
  const match = /^syllabi_prepared_lane_answers_total (\d+)$/m.exec(await response.text());
  if (!match) throw new Error("the lane's counter is missing from /metrics");
  return Number(match[1]);
}

/** Headers whose values differ between any two answers: the request's id, the date, and the count left. */
const perRequest = new Set(["request-id", "date", "ratelimit", "ratelimit-remaining"]);

function expectSameAnswer(lane: Answer, router: Answer) {
  expect(lane.status).toBe(router.status);
  expect(lane.body.equals(router.body)).toBe(true);
  expect([...lane.headers.keys()].sort()).toEqual([...router.headers.keys()].sort());
  for (const [name, value] of router.headers) {
    if (!perRequest.has(name)) expect({ name, value: lane.headers.get(name) }).toEqual({ name, value });
  }
  expect(lane.headers.get("request-id")).toMatch(/^req_[0-9A-Za-z]{20}$/);
  expect(lane.headers.get("request-id")).not.toBe(router.headers.get("request-id"));
}

describe("the prepared lane", () => {
  it("answers the catalogue's GETs exactly as the router does, 200 and 304 alike", async () => {
    for (const path of paths) {
      const before = await laneAnswers();
      // A query string (ignored by these routes) leaves the request to the router.
      const router = await get(`${path}?via=router`);
      const lane = await get(path);
      expect(await laneAnswers()).toBe(before + 1);
      expect(router.status).toBe(200);
      expectSameAnswer(lane, router);
      // Each answer counted once against the key's limit, whichever path it took.
      expect(Number(router.headers.get("ratelimit-remaining")) - 1).toBe(
        Number(lane.headers.get("ratelimit-remaining")),
      );

      const etag = lane.headers.get("etag")!;
      const routerNotModified = await get(`${path}?via=router`, { "if-none-match": etag });
      const laneNotModified = await get(path, { "if-none-match": `W/"other", ${etag}` });
      expect(routerNotModified.status).toBe(304);
      expectSameAnswer(laneNotModified, routerNotModified);
      expect(await laneAnswers()).toBe(before + 2);
    }
  });

  it("counts what it answers in the route's metrics, like any request", async () => {
    const metrics = async () =>
      (
        await (
          await fetch(`${app.baseUrl}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })
        ).text()
      ).match(
        /^syllabi_http_requests_total\{method="GET",route="\/api\/v1\/subjects\/:subjectId\/tree",status="200"\} (\d+)$/m,
      );
    const before = Number((await metrics())?.[1] ?? 0);
    await get(paths[1]!);
    await get(paths[1]!);
    expect(Number((await metrics())?.[1])).toBe(before + 2);
  });

  it("leaves every refusal and every unknown id to the router, with the contract's errors", async () => {
    const before = await laneAnswers();
    const unknown = await get("/api/v1/subjects/no-such-subject/tree");
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body.toString()).error).toBe("subject_not_found");

    const missingKey = await get(paths[0]!, {}, "");
    expect(missingKey.status).toBe(401);

    const locked = await createDeveloper(app, { unlocked: false });
    const unpaid = await get(paths[1]!, {}, locked.key);
    expect(unpaid.status).toBe(402);
    expect(JSON.parse(unpaid.body.toString()).error).toBe("topup_required");

    const noScope = await createDeveloper(app, { unlocked: true, scopes: ["chat"] });
    const refused = await get(paths[1]!, {}, noScope.key);
    expect(refused.status).toBe(403);
    expect(await laneAnswers()).toBe(before);
  });

  it("stops at the key's limit: the refusal comes from the router with Retry-After", async () => {
    const limited = await createDeveloper(app, { unlocked: true });
    const statuses: number[] = [];
    for (let index = 0; index < generalPerMinute; index += 1)
      statuses.push((await get(paths[index % paths.length]!, {}, limited.key)).status);
    expect(statuses.every((status) => status === 200)).toBe(true);
    const refusal = await get(paths[1]!, {}, limited.key);
    expect(refusal.status).toBe(429);
    expect(refusal.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(JSON.parse(refusal.body.toString()).error).toBe("rate_limited");
  });
});
