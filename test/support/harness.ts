import { eq } from "drizzle-orm";
import { loadCatalogue } from "../../src/catalogue/load.ts";
import type { CatalogueSnapshot } from "../../src/catalogue/model.ts";
import { parseConfig } from "../../src/config.ts";
import { createRuntime, type Runtime } from "../../src/runtime.ts";
import { accounts } from "../../src/storage/schema.ts";

let sharedCatalogue: Promise<CatalogueSnapshot> | null = null;

/** The real catalogue, compiled once per test file. */
export function testCatalogue(): Promise<CatalogueSnapshot> {
  sharedCatalogue ??= loadCatalogue();
  return sharedCatalogue;
}

export interface TestApp {
  baseUrl: string;
  runtime: Runtime;
  close(): Promise<void>;
}

/** The real app listening on a random local port, with fresh in-memory storage unless DATABASE_URL is given. */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const config = parseConfig({
    NODE_ENV: "test",
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    PORT: "0",
    HOST: "127.0.0.1",
    ...env,
  });
  const runtime = await createRuntime(config, { inMemoryDatabase: true, catalogue: await testCatalogue() });
  const address = await runtime.app.listen({ port: 0, host: "127.0.0.1" });
  return { baseUrl: address, runtime, close: () => runtime.close() };
}

/** A browser-like client for the platform API: keeps cookies and echoes the CSRF token. */
export class PlatformClient {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly baseUrl: string) {}

  async request(
    method: string,
    path: string,
    body?: unknown,
    options: { csrf?: boolean } = {},
  ): Promise<Response> {
    if (!this.cookies.has("csrf_token") && method !== "GET") await this.request("GET", "/platform/api/me");
    const headers: Record<string, string> = {
      cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
    };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (options.csrf !== false && this.cookies.has("csrf_token"))
      headers["x-csrf-token"] = this.cookies.get("csrf_token")!;
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const [name, ...value] = (pair ?? "").split("=");
      if (name) this.cookies.set(name.trim(), value.join("="));
    }
    return response;
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }
}

let developerCounter = 0;

/** Registers a developer through the platform API and makes a key; optionally unlocks the data endpoints. */
export async function createDeveloper(
  app: TestApp,
  options: { scopes?: string[]; unlocked?: boolean } = {},
): Promise<{ client: PlatformClient; accountId: string; email: string; key: string; keyId: string }> {
  const client = new PlatformClient(app.baseUrl);
  developerCounter += 1;
  const email = `dev${developerCounter}-${Date.now()}@example.test`;
  const registered = await client.request("POST", "/platform/api/register", {
    email,
    password: "correct horse battery staple",
    name: "Test Developer",
    useCase: "A revision app for GCSE students",
    acceptTerms: true,
  });
  if (registered.status !== 201)
    throw new Error(`register failed: ${registered.status} ${await registered.text()}`);
  const { account } = (await registered.json()) as { account: { id: string } };
  const created = await client.request("POST", "/platform/api/keys", {
    name: "test key",
    ...(options.scopes ? { scopes: options.scopes } : {}),
  });
  if (created.status !== 201)
    throw new Error(`key creation failed: ${created.status} ${await created.text()}`);
  const { key, secret } = (await created.json()) as { key: { id: string }; secret: string };
  if (options.unlocked) await unlockData(app, account.id);
  return { client, accountId: account.id, email, key: secret, keyId: key.id };
}

/**
 * Marks the account's data endpoints unlocked, as the first confirmed top-up does, for suites that test
 * other behaviour. The billing suites unlock through the real payment flow.
 */
export async function unlockData(app: TestApp, accountId: string): Promise<void> {
  await app.runtime.storage.db
    .update(accounts)
    .set({ dataUnlockedAt: new Date() })
    .where(eq(accounts.id, accountId));
  await app.runtime.keys.announceAccountChange(accountId);
}

export async function api(
  app: TestApp,
  key: string | null,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; json: Record<string, unknown> }> {
  const response = await fetch(`${app.baseUrl}${path}`, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    json: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}
