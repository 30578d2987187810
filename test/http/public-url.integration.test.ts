import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fund } from "../support/funding.ts";
import { createDeveloper, startTestApp, type TestApp } from "../support/harness.ts";
import { parseNdjson } from "../support/ndjson-stream.ts";

/**
 * Links the service makes for people — checkout pages, the API document's server, the chat attribution — use
 * PUBLIC_URL, or by default the server's own address. On PORT=0 the port is only known once the server listens,
 * and the links must carry that port, not `:0`.
 */

async function openCheckout(app: TestApp): Promise<string> {
  const { client } = await createDeveloper(app);
  const opened = await client.request("POST", "/platform/api/billing/checkout", { amountPence: 1000 });
  expect(opened.status).toBe(200);
  return ((await opened.json()) as { url: string }).url;
}

async function documentedServer(app: TestApp): Promise<string | undefined> {
  const document = (await (await fetch(`${app.baseUrl}/api/v1/openapi.json`)).json()) as {
    servers?: { url: string }[];
  };
  return document.servers?.[0]?.url;
}

describe("without PUBLIC_URL, on PORT=0", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ PORT: "0" });
  });
  afterAll(() => app.close());

  it("puts the port the server listens on into checkout links, and the link works as given", async () => {
    expect(new URL(app.baseUrl).port).not.toBe("0");
    const url = await openCheckout(app);
    expect(url).toMatch(new RegExp(`^${app.baseUrl}/_pay/checkout/chk_`));

    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("£10.00");
    const paid = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ cardNumber: "4242424242424242" }),
    });
    expect(paid.status).toBe(200);
  });

  it("names the same address as the API document's server and in the chat attribution", async () => {
    expect(await documentedServer(app)).toBe(app.baseUrl);

    const developer = await createDeveloper(app);
    await fund(app, developer.accountId, 1000);
    const chat = await fetch(`${app.baseUrl}/api/v1/chat`, {
      method: "POST",
      headers: { authorization: `Bearer ${developer.key}`, "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "What is osmosis in plant cells?" }] }),
    });
    expect(chat.status).toBe(200);
    const done = parseNdjson<{ type: string; attribution?: { url: string } }>(await chat.text()).at(-1);
    expect(done).toMatchObject({ type: "done", attribution: { url: app.baseUrl } });
  });
});

describe("with PUBLIC_URL", () => {
  const publicUrl = "https://api.syllabi.example";
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ PORT: "0", PUBLIC_URL: publicUrl });
  });
  afterAll(() => app.close());

  it("uses it for every link, whatever port the server listens on", async () => {
    expect(await openCheckout(app)).toMatch(new RegExp(`^${publicUrl}/_pay/checkout/chk_`));
    expect(await documentedServer(app)).toBe(publicUrl);
  });
});
