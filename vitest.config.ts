import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: integration suites each start a real app and database; keep parallelism modest.
    maxWorkers: 2,
    pool: "forks",
  },
});
