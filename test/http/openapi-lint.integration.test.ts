import { execFile } from "node:child_process";
import { copyFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCatalogue, type ErrorCode } from "../../src/http/errors.ts";
import { startTestApp, type TestApp } from "../support/harness.ts";

const run = promisify(execFile);
const repositoryRoot = path.resolve(import.meta.dirname, "../..");
const redoclyCli = createRequire(import.meta.url).resolve("@redocly/cli/bin/cli.js");

interface Operation {
  operationId?: string;
  summary?: string;
  responses: Record<
    string,
    { content?: Record<string, { schema: { properties: { error?: { enum?: string[] } } } }> }
  >;
}
type Document = { paths: Record<string, Record<string, Operation>> };

let app: TestApp;
let document: Document;
let raw: string;

beforeAll(async () => {
  app = await startTestApp();
  const response = await fetch(`${app.baseUrl}/api/v1/openapi.json`);
  expect(response.status).toBe(200);
  raw = await response.text();
  document = JSON.parse(raw) as Document;
});
afterAll(() => app.close());

function operations(): [string, string, Operation][] {
  return Object.entries(document.paths).flatMap(([url, methods]) =>
    Object.entries(methods).map(([method, operation]): [string, string, Operation] => [
      method,
      url,
      operation,
    ]),
  );
}

describe("the generated OpenAPI document", () => {
  it("passes Redocly's lint with the repository's configuration", async () => {
    const directory = await mkdtemp(path.join(tmpdir(), "syllabi-openapi-"));
    try {
      await writeFile(path.join(directory, "openapi.json"), raw);
      // The ignore file names the document by its path relative to the configuration, so both travel with it.
      await copyFile(path.join(repositoryRoot, "redocly.yaml"), path.join(directory, "redocly.yaml"));
      await copyFile(
        path.join(repositoryRoot, ".redocly.lint-ignore.yaml"),
        path.join(directory, ".redocly.lint-ignore.yaml"),
      );
      const { stdout } = await run(
        process.execPath,
        [redoclyCli, "lint", "openapi.json", "--config", "redocly.yaml", "--format", "json"],
        {
          cwd: directory,
          env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        },
      ).catch((failure: { stdout?: string }) => ({ stdout: failure.stdout ?? "" }));
      const report = JSON.parse(stdout) as {
        totals: { errors: number; warnings: number };
        problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
      };
      const problems = report.problems.map(
        (problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`,
      );
      expect(problems).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("documents every error with the status the error catalogue gives it", () => {
    for (const [method, url, operation] of operations()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const codes = response.content?.["application/json"]?.schema?.properties?.error?.enum ?? [];
        for (const code of codes) {
          expect(errorCatalogue[code as ErrorCode]?.status, `${method} ${url} ${status} ${code}`).toBe(
            Number(status),
          );
        }
      }
    }
  });

  it("gives every /api/v1 operation an id, a summary and the errors of the guard", () => {
    const apiOperations = operations().filter(([, url]) => url.startsWith("/api/v1/"));
    expect(apiOperations.length).toBeGreaterThanOrEqual(9);
    const ids = new Set<string>();
    for (const [method, url, operation] of apiOperations) {
      expect(operation.operationId, `${method} ${url}`).toMatch(/^[a-z][A-Za-z]+$/);
      ids.add(operation.operationId!);
      expect(operation.summary, `${method} ${url}`).toBeTruthy();
      for (const status of ["401", "403", "429", "500", "503"]) {
        expect(operation.responses[status], `${method} ${url} ${status}`).toBeDefined();
      }
      if (method === "post") {
        for (const status of ["400", "413", "415"]) {
          expect(operation.responses[status], `${method} ${url} ${status}`).toBeDefined();
        }
      }
    }
    expect(ids.size).toBe(apiOperations.length);
  });
});
