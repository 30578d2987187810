import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";

/**
 * PGlite creates a new data directory by running initdb inside WebAssembly, which takes seconds: most of a first
 * `npm start`, and migrating the new cluster takes more. Loading a dump of a migrated cluster is several times
 * faster, so `npm ci` (the `prepare` script) makes one per PGlite version, and a first start on an empty directory
 * loads it (later migrations still apply as usual). Without the dump everything still works, only more slowly.
 */
const pgliteVersion = JSON.parse(
  readFileSync(
    path.resolve(import.meta.dirname, "../../node_modules/@electric-sql/pglite/package.json"),
    "utf8",
  ),
) as { version: string };

export const pgliteTemplatePath = path.resolve(
  import.meta.dirname,
  `../../node_modules/.cache/syllabi/pglite-${pgliteVersion.version}.tar.gz`,
);

function isEmptyDirectory(directory: string): boolean {
  return !existsSync(directory) || readdirSync(directory).length === 0;
}

/** A fresh empty cluster's dump to load into `dataDir`, when it is empty and the dump exists. */
export async function templateFor(dataDir: string): Promise<Blob | undefined> {
  if (!isEmptyDirectory(dataDir) || !existsSync(pgliteTemplatePath)) return undefined;
  return new Blob([await readFile(pgliteTemplatePath)]);
}

/**
 * Writes the dump of `client` (a fresh cluster, with the current migrations applied so a first start has nothing
 * to migrate) atomically, so a half-written file is never loaded.
 */
export async function writePgliteTemplate(client: PGlite): Promise<string> {
  const dump = await client.dumpDataDir("gzip");
  await mkdir(path.dirname(pgliteTemplatePath), { recursive: true });
  const partial = `${pgliteTemplatePath}.${process.pid}.partial`;
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
  await rename(partial, pgliteTemplatePath);
  return pgliteTemplatePath;
}
