import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createDeveloper, startTestApp, type TestApp } from "../support/harness.ts";

/** One instance without Redis: the limits are counted in its memory. */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({
    RATE_LIMIT_GENERAL_PER_MIN: "4",
    RATE_LIMIT_AI_PER_MIN: "1",
    RATE_LIMIT_IP_PER_MIN: "2",
  });
});
afterAll(() => app.close());

describe("rate limits in one instance's memory", () => {
  it("counts each key's requests, then refuses with 429, Retry-After and the contract's fields", async () => {
    expect(app.runtime.rateLimits.backend).toBe("memory");
    const { key } = await createDeveloper(app, { unlocked: true });
    for (let request = 1; request <= 4; request += 1) {
      const response = await api(app, key, "GET", "/api/v1/subjects");
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit-policy")).toBe('"general";q=4;w=60');
      expect(response.headers.get("ratelimit-remaining")).toBe(String(4 - request));
      expect(response.headers.get("ratelimit")).toMatch(new RegExp(`^"general";r=${4 - request};t=\\d+$`));
    }
    const refused = await api(app, key, "GET", "/api/v1/subjects");
    expect(refused.status).toBe(429);
    expect(refused.json.error).toBe("rate_limited");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.json.retryAfterSeconds).toBe(retryAfter);
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("cache-control")).toBe("private, no-store");
  });

  it("refuses a model-backed call over the ai limit without counting it against general", async () => {
    const { key } = await createDeveloper(app, { unlocked: true });
    const body = { subjectId: "aqa-gcse-biology-8461", text: "cells and their structure" };
    const first = await api(app, key, "POST", "/api/v1/align", body);
    // Unfunded: refused for balance, but counted against both limits like any authenticated call.
    expect(first.status).toBe(402);
    expect(first.headers.get("ratelimit")).toMatch(/^"ai";r=0;/);
    const second = await api(app, key, "POST", "/api/v1/align", body);
    expect(second.status).toBe(429);
    expect(second.headers.get("ratelimit-policy")).toBe('"general";q=4;w=60, "ai";q=1;w=60');
    const data = await api(app, key, "GET", "/api/v1/subjects");
    expect(data.status).toBe(200);
    // general: the first align and this call; the refused one gave its place back.
    expect(data.headers.get("ratelimit-remaining")).toBe("2");
  });

  it("limits requests with a bad key per client address", async () => {
    const statuses: number[] = [];
    for (let request = 0; request < 3; request += 1) {
      statuses.push(
        (await api(app, "syl_live_notarealkeynotarealkeynotarealkey000000", "GET", "/api/v1/subjects"))
          .status,
      );
    }
    expect(statuses).toEqual([401, 401, 429]);
  });
});
