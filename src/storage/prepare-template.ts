import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { migrationsFolder } from "./database.ts";
import { writePgliteTemplate } from "./pglite-template.ts";

/** `npm ci` runs this (the `prepare` script): a failure only costs a slower first start, so it never fails install. */
try {
  const client = new PGlite();
  await client.waitReady;
  await migrate(drizzle(client), { migrationsFolder });
  const written = await writePgliteTemplate(client);
  await client.close();
  process.stdout.write(`syllabi: PGlite template ready (${written})\n`);
} catch (error) {
  process.stderr.write(
    `syllabi: no PGlite template (${(error as Error).message}); first start will be slower\n`,
  );
}
