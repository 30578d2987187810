import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createDeveloper, startTestApp, type TestApp } from "../support/harness.ts";

let app: TestApp;
let key: string;
let lockedKey: string;

beforeAll(async () => {
  app = await startTestApp();
  key = (await createDeveloper(app, { unlocked: true })).key;
  lockedKey = (await createDeveloper(app)).key;
});
afterAll(() => app.close());

function expectApiHeaders(headers: Headers) {
  expect(headers.get("cache-control")).toBe("private, no-store");
  expect(headers.get("access-control-allow-origin")).toBe("*");
  expect(headers.get("access-control-expose-headers")).toContain("RateLimit-Remaining");
  expect(headers.get("access-control-expose-headers")).toContain("Retry-After");
  expect(headers.get("request-id")).toMatch(/^req_[0-9A-Za-z]{20}$/);
}

function expectErrorBody(json: Record<string, unknown>, code: string, headers: Headers) {
  expect(json.error).toBe(code);
  expect(typeof json.message).toBe("string");
  expect(json.requestId).toBe(headers.get("request-id"));
}

describe("every /api/v1 response", () => {
  it("carries no-store, CORS and a unique Request-Id on success", async () => {
    const first = await api(app, key, "GET", "/api/v1/account");
    const second = await api(app, key, "GET", "/api/v1/account");
    expect(first.status).toBe(200);
    expectApiHeaders(first.headers);
    expect(first.headers.get("request-id")).not.toBe(second.headers.get("request-id"));
  });

  it("answers an unknown path with the JSON 404 and the same headers", async () => {
    const response = await api(app, key, "GET", "/api/v1/nope");
    expect(response.status).toBe(404);
    expectApiHeaders(response.headers);
    expectErrorBody(response.json, "not_found", response.headers);
  });

  it("answers a browser preflight without a key", async () => {
    const response = await fetch(`${app.baseUrl}/api/v1/align`, {
      method: "OPTIONS",
      headers: {
        origin: "https://revision.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type, idempotency-key",
      },
    });
    expect(response.status).toBe(204);
    expectApiHeaders(response.headers);
    expect(response.headers.get("access-control-allow-methods")).toBe("GET, POST, OPTIONS");
    expect(response.headers.get("access-control-allow-headers")).toBe(
      "Authorization, Content-Type, Idempotency-Key",
    );
    expect(response.headers.get("access-control-max-age")).toBe("600");
  });

  it("answers a known path with the wrong method with 405 and Allow", async () => {
    const response = await api(app, key, "DELETE", "/api/v1/subjects");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toContain("GET");
    expectApiHeaders(response.headers);
    expectErrorBody(response.json, "method_not_allowed", response.headers);
  });
});

describe("authentication errors", () => {
  it("401 missing_api_key without a header or with a malformed one", async () => {
    for (const authorization of [undefined, "Basic abc", "Bearer", "syl_live_x"]) {
      const response = await api(
        app,
        null,
        "GET",
        "/api/v1/account",
        undefined,
        authorization ? { authorization } : {},
      );
      expect(response.status).toBe(401);
      expectErrorBody(response.json, "missing_api_key", response.headers);
      expectApiHeaders(response.headers);
    }
  });

  it("401 invalid_api_key for a key with a broken checksum or an unknown key", async () => {
    const broken = `${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`;
    const response = await api(app, broken, "GET", "/api/v1/account");
    expect(response.status).toBe(401);
    expectErrorBody(response.json, "invalid_api_key", response.headers);
  });
});

describe("the order of checks", () => {
  it("authenticates before reading the body: 401 beats 415 and invalid_json", async () => {
    const response = await fetch(`${app.baseUrl}/api/v1/subjects`, { method: "GET" });
    expect(response.status).toBe(401);
  });

  it("refuses data endpoints with 402 topup_required before validating the query", async () => {
    const response = await api(app, lockedKey, "GET", "/api/v1/subjects?qualification=Nonsense");
    expect(response.status).toBe(402);
    expectErrorBody(response.json, "topup_required", response.headers);
  });

  it("lets the account endpoint through before any top-up", async () => {
    const response = await api(app, lockedKey, "GET", "/api/v1/account");
    expect(response.status).toBe(200);
    expect((response.json.billing as { dataUnlocked: boolean }).dataUnlocked).toBe(false);
  });

  it("validates the query with 400 invalid_request naming the parameter once unlocked", async () => {
    const response = await api(app, key, "GET", "/api/v1/subjects?qualification=Nonsense");
    expect(response.status).toBe(400);
    expectErrorBody(response.json, "invalid_request", response.headers);
    expect(response.json.param).toBe("qualification");
    expect(response.json.message).toContain("GCSE, A-Level, BTEC");
  });
});

describe("OpenAPI and docs", () => {
  it("serves the OpenAPI 3.1 document without a key", async () => {
    const response = await fetch(`${app.baseUrl}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(["/api/v1/subjects", "/api/v1/subjects/{subjectId}/tree", "/api/v1/account"]),
    );
  });

  it("serves the interactive reference from local assets", async () => {
    const page = await fetch(`${app.baseUrl}/docs/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\/(cdn|unpkg|jsdelivr)/);
  });
});

describe("operations", () => {
  it("reports health and readiness", async () => {
    expect((await fetch(`${app.baseUrl}/healthz`)).status).toBe(200);
    const ready = await fetch(`${app.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ready", storage: "pglite" });
  });

  it("hides metrics unless a token is configured", async () => {
    expect((await fetch(`${app.baseUrl}/metrics`)).status).toBe(404);
  });

  it("counts requests by route pattern and status, with their durations, behind the token", async () => {
    const measured = await startTestApp({ METRICS_TOKEN: "a-metrics-token-for-tests" });
    try {
      const measuredKey = (await createDeveloper(measured, { unlocked: true })).key;
      const headers = { authorization: `Bearer ${measuredKey}` };
      for (let call = 0; call < 3; call += 1) await fetch(`${measured.baseUrl}/api/v1/subjects`, { headers });
      await fetch(`${measured.baseUrl}/api/v1/subjects/no-such-subject/tree`, { headers });
      await fetch(`${measured.baseUrl}/api/v1/no-such-path`, { headers });
      expect((await fetch(`${measured.baseUrl}/metrics`)).status).toBe(401);
      const response = await fetch(`${measured.baseUrl}/metrics`, {
        headers: { authorization: "Bearer a-metrics-token-for-tests" },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("text/plain");
      const text = await response.text();
      expect(text).toContain("process_cpu_user_seconds_total");
      expect(text).toContain(
        'syllabi_http_requests_total{method="GET",route="/api/v1/subjects",status="200"} 3',
      );
      expect(text).toContain(
        'syllabi_http_requests_total{method="GET",route="/api/v1/subjects/:subjectId/tree",status="404"} 1',
      );
      expect(text).toContain('syllabi_http_requests_total{method="GET",route="unmatched",status="404"} 1');
      expect(text).toContain(
        'syllabi_http_request_duration_seconds_count{method="GET",route="/api/v1/subjects"} 3',
      );
      expect(text).toContain(
        'syllabi_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/v1/subjects"} 3',
      );
    } finally {
      await measured.close();
    }
  });
});
