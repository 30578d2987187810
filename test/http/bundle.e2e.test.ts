import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fundedDeveloperOverHttp,
  startServerProcess,
  type ServerProcess,
} from "../support/server-process.ts";

/**
 * `npm start` runs the esbuild bundle, dependencies included, not the TypeScript the other suites run: this builds
 * it the same way (into its own directory, two levels down like dist/bundle) and uses every kind of surface once,
 * so a dependency that does not survive bundling fails here rather than in production.
 */
const repositoryRoot = path.resolve(import.meta.dirname, "../..");
const bundleDirectory = path.join(repositoryRoot, "dist", "e2e-bundle");

let dataDir: string;
let server: ServerProcess;

beforeAll(async () => {
  execFileSync(process.execPath, ["scripts/build.mjs", path.join(bundleDirectory, "cli.mjs")], {
    cwd: repositoryRoot,
    stdio: "inherit",
  });
  dataDir = await mkdtemp(path.join(tmpdir(), "syllabi-bundle-"));
  server = await startServerProcess({ DATA_DIR: dataDir }, { entry: path.join(bundleDirectory, "cli.mjs") });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
  await rm(bundleDirectory, { recursive: true, force: true });
  // The bundle's own compiled-catalogue entry (one per copy of the code, named by its directory).
  const entry = `catalogue-snapshot-${createHash("sha256").update(bundleDirectory).digest("hex").slice(0, 12)}.json`;
  await rm(path.join(repositoryRoot, "node_modules", ".cache", "syllabi", entry), { force: true });
});

describe("the built bundle", () => {
  it("serves the data, paid, platform, docs and portal surfaces", async () => {
    const { keys } = await fundedDeveloperOverHttp(server.baseUrl, { keys: 1 });
    const headers = { authorization: `Bearer ${keys[0]}` };
    const get = (pathname: string) => fetch(`${server.baseUrl}${pathname}`, { headers });

    const subjects = (await (await get("/api/v1/subjects")).json()) as {
      subjects: { id: string }[];
      count: number;
    };
    expect(subjects.count).toBeGreaterThan(100);
    const subjectId = subjects.subjects[0]!.id;
    expect((await get(`/api/v1/subjects/${subjectId}/tree`)).status).toBe(200);
    const search = (await (await get("/api/v1/search?q=photosynthesis")).json()) as { count: number };
    expect(search.count).toBeGreaterThan(0);

    const aligned = await fetch(`${server.baseUrl}/api/v1/align`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ subjectId, text: "Cells, their structure and how they divide" }),
    });
    expect(aligned.status).toBe(200);
    expect(((await aligned.json()) as { usage: { chargedPence: number } }).usage.chargedPence).toBe(1);

    const document = (await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).json()) as {
      openapi: string;
    };
    expect(document.openapi).toBe("3.1.0");
    const docs = await fetch(`${server.baseUrl}/docs/static/index.html`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain("swagger");
    const portal = await fetch(`${server.baseUrl}/`);
    expect(portal.status).toBe(200);
    expect(portal.headers.get("content-type")).toContain("text/html");
  });
});
