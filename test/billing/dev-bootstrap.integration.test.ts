import { afterAll, beforeAll, expect, it } from "vitest";
import { devBootstrap } from "../../src/billing/dev-bootstrap.ts";
import { api, startTestApp, type TestApp } from "../support/harness.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

it("dev bootstrap makes a developer with a key and a confirmed £10 top-up", async () => {
  const outcome = await devBootstrap(app.runtime, "bootstrap@example.test");
  expect(outcome).toMatchObject({ ok: true, balancePence: 1000 });
  if (!outcome.ok) return;
  expect((await api(app, outcome.key, "GET", "/api/v1/subjects")).status).toBe(200);
  expect(await devBootstrap(app.runtime, "bootstrap@example.test")).toMatchObject({ ok: false });
});
