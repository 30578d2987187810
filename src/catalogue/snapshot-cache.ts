import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { SourceFile } from "./load-sources.ts";
import type { Subject } from "./model.ts";

/**
 * The compiled catalogue, kept between starts: parsing and validating 179 YAML files is most of a start-up's
 * catalogue work, and reading back the compiled subjects is a small fraction of it. The entry is keyed by a hash of
 * everything that decides what compiling would give — every source file's name and bytes, the code that parses,
 * checks and compiles them, and the versions of the libraries it uses — so a changed file, a changed rule or an
 * upgraded parser is a miss, compiled and validated in full, never stale content. One entry is kept per copy of the
 * code (the sources run through tsx, the built bundle), so running one does not evict the other's; a miss replaces
 * it.
 */
export const defaultSnapshotCachePath = path.resolve(
  import.meta.dirname,
  "../../node_modules/.cache/syllabi",
  `catalogue-snapshot-${createHash("sha256").update(import.meta.dirname).digest("hex").slice(0, 12)}.json`,
);

/** Changed whenever the cached form changes shape. */
const cacheFormat = "syllabi-catalogue-snapshot-1";

const repositoryRoot = path.resolve(import.meta.dirname, "../..");
const libraries = ["zod", "js-yaml"];

/**
 * The code that turns sources into subjects: the files beside this module — `src/catalogue/*.ts` when run from
 * source, the whole bundle (`dist/bundle/cli.mjs`) when run as built. More than strictly needed, never less.
 */
function codeFiles(): string[] {
  const names = readdirSync(import.meta.dirname)
    .filter((name) => /\.(ts|mjs|js)$/.test(name))
    .sort();
  return names.map((name) => path.join(import.meta.dirname, name));
}

// Reads here are synchronous, like the sources' (see readSourceFiles): start-up's asynchronous reads queue.

export function snapshotKey(files: readonly SourceFile[]): string {
  const hash = createHash("sha256").update(cacheFormat);
  const add = (label: string, bytes: Buffer | string) =>
    hash.update(`\u0000${label}\u0000${Buffer.byteLength(bytes)}\u0000`).update(bytes);
  for (const file of codeFiles()) add(`code:${path.basename(file)}`, readFileSync(file));
  for (const library of libraries) {
    const manifest = path.join(repositoryRoot, "node_modules", library, "package.json");
    const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { version: string };
    add(`library:${library}`, version);
  }
  for (const file of files) add(`source:${file.name}`, file.bytes);
  return hash.digest("hex");
}

/** The cached subjects when the entry was written for exactly this key; null otherwise (or when unreadable). */
export function readCachedSubjects(cachePath: string, key: string): Subject[] | null {
  let text: string;
  try {
    text = readFileSync(cachePath, "utf8");
  } catch {
    return null;
  }
  const newline = text.indexOf("\n");
  if (newline < 0 || text.slice(0, newline) !== key) return null;
  try {
    return JSON.parse(text.slice(newline + 1)) as Subject[];
  } catch {
    return null;
  }
}

/** Replaces the entry atomically (a reader sees the old file or the new one, never half of one). */
export async function writeCachedSubjects(
  cachePath: string,
  key: string,
  subjects: readonly Subject[],
): Promise<void> {
  const partial = `${cachePath}.${process.pid}.partial`;
  try {
    await mkdir(path.dirname(cachePath), { recursive: true });
    await writeFile(partial, `${key}\n${JSON.stringify(subjects)}`);
    await rename(partial, cachePath);
  } catch {
    // Only a slower next start: a read-only install keeps working, compiling every time.
    await rm(partial, { force: true }).catch(() => {});
  }
}
