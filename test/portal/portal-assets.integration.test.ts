import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { portalRoot } from "../../src/portal/portal-plugin.ts";
import { startTestApp, type TestApp } from "../support/harness.ts";

function portalFiles(directory = portalRoot): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? portalFiles(path.join(directory, entry.name))
      : [path.relative(portalRoot, path.join(directory, entry.name))],
  );
}

describe("portal assets over HTTP", () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });

  afterAll(async () => {
    await app?.close();
  });

  it("serves every portal file with the security headers", async () => {
    const files = portalFiles();
    expect(files).toContain("index.html");
    for (const file of files) {
      const response = await fetch(`${app.baseUrl}/${file.split(path.sep).join("/")}`);
      expect(response.status, file).toBe(200);
      const csp = response.headers.get("content-security-policy") ?? "";
      expect(csp, file).toContain("frame-ancestors 'none'");
      expect(csp, file).toMatch(/script-src 'self'(;|$)/);
      expect(csp, file).not.toContain("unsafe-inline");
      expect(response.headers.get("x-content-type-options"), file).toBe("nosniff");
      expect(response.headers.get("referrer-policy"), file).toBe("same-origin");
    }
  });

  it("serves the portal at / and the terms at /terms, with the attribution duty", async () => {
    const home = await fetch(`${app.baseUrl}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get("content-type")).toMatch(/^text\/html/);
    const terms = await fetch(`${app.baseUrl}/terms`);
    expect(terms.status).toBe(200);
    expect(await terms.text()).toMatch(/must show a visible attribution/);
  });

  it("leaves unknown paths and the API to the service's JSON 404, without portal headers", async () => {
    for (const url of ["/no-such-page", "/js/missing.js", "/api/v1/no-such-route"]) {
      const response = await fetch(`${app.baseUrl}${url}`);
      expect(response.status, url).toBe(404);
      expect(((await response.json()) as { error: string }).error, url).toBe("not_found");
      expect(response.headers.get("content-security-policy"), url).toBeNull();
    }
  });

  it("works offline: no page, script or style loads anything from another origin", () => {
    for (const file of portalFiles().filter((name) => /\.(html|js|css)$/.test(name))) {
      const text = readFileSync(path.join(portalRoot, file), "utf8");
      expect(text, file).not.toMatch(/(src|href)\s*=\s*["']?(https?:)?\/\//i);
      expect(text, file).not.toMatch(/@import\s+url\(\s*["']?https?:/i);
      expect(text, file).not.toMatch(/\bimport\s[^;]*from\s+["']https?:/);
      expect(text, file).not.toMatch(/<script>(?!\s*<\/script>)/);
      expect(text, file).not.toMatch(/\sstyle\s*=\s*["']/);
      expect(text, file).not.toMatch(/\son[a-z]+\s*=\s*["']/);
    }
  });
});
