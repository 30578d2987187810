import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: ["./src/storage/schema.ts", "./src/operator/operator-schema.ts"],
  out: "./drizzle",
});
