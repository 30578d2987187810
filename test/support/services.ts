import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import pg from "pg";

/**
 * PostgreSQL and Redis are real services in CI (127.0.0.1:5432 and :6379). Elsewhere the suites that need them
 * skip with a message; in CI (CI=true) a missing service is a failure, not a skip.
 */
const postgresAdminUrl = process.env.SYLLABI_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const redisUrl = process.env.SYLLABI_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const inCi = process.env.CI === "true";

async function reachable(probe: () => Promise<void>, name: string): Promise<boolean> {
  try {
    await probe();
    return true;
  } catch (error) {
    if (inCi) throw new Error(`${name} is required in CI but unreachable: ${(error as Error).message}`);
    console.warn(`skipping ${name} tests: ${name} is not reachable here (${(error as Error).message})`);
    return false;
  }
}

export const postgresAvailable = await reachable(async () => {
  const client = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 2000 });
  await client.connect();
  await client.end();
}, "PostgreSQL");

export const redisAvailable = await reachable(async () => {
  const client = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0 });
  try {
    await client.connect();
    await client.ping();
  } finally {
    client.disconnect();
  }
}, "Redis");

/** A fresh database for one test file; dropped afterwards. */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `syllabi_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: postgresAdminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** A Redis key prefix for one test file, and a cleanup that deletes its keys. */
export function createRedisPrefix(): { url: string; prefix: string; cleanup: () => Promise<void> } {
  const prefix = `syllabi-test-${randomBytes(6).toString("hex")}`;
  return {
    url: redisUrl,
    prefix,
    cleanup: async () => {
      const client = new Redis(redisUrl);
      const keys = await client.keys(`${prefix}:*`);
      if (keys.length > 0) await client.del(...keys);
      client.disconnect();
    },
  };
}
