import { checkSpecifications } from "./check.ts";
import { compileSubjects, indexCatalogue } from "./compile.ts";
import { parseSourceFiles, readSourceFiles } from "./load-sources.ts";
import type { CatalogueSnapshot } from "./model.ts";
import {
  defaultSnapshotCachePath,
  readCachedSubjects,
  snapshotKey,
  writeCachedSubjects,
} from "./snapshot-cache.ts";

export class CatalogueInvalidError extends Error {}

export interface LoadCatalogueOptions {
  /**
   * Where the compiled snapshot is kept between starts and read back when nothing that decides it has changed;
   * null: every file is parsed, validated and compiled. By default the catalogue's own directory is cached in
   * node_modules/.cache/syllabi, any other directory is not.
   */
  cachePath?: string | null;
}

/** Loads, validates and compiles the catalogue; refuses to start on invalid content. */
export async function loadCatalogue(
  directory?: string,
  options: LoadCatalogueOptions = {},
): Promise<CatalogueSnapshot> {
  const files = readSourceFiles(directory);
  const cachePath = options.cachePath !== undefined ? options.cachePath : directory === undefined ? defaultSnapshotCachePath : null;
  const cache = cachePath === null ? null : { path: cachePath, key: snapshotKey(files) };
  if (cache) {
    const cached = readCachedSubjects(cache.path, cache.key);
    if (cached) return indexCatalogue(cached);
  }

  const { specifications, problems } = await parseSourceFiles(files);
  problems.push(...checkSpecifications(specifications));
  if (problems.length > 0) {
    const first = problems[0]!;
    throw new CatalogueInvalidError(
      `catalogue invalid (${problems.length} problem(s)); first: ${first.file} ${first.path}: ${first.message} — run "syllabi catalogue check"`,
    );
  }
  const subjects = compileSubjects(specifications.map(({ source }) => source));
  // Only a catalogue that passed every check is ever written.
  if (cache) await writeCachedSubjects(cache.path, cache.key, subjects);
  return indexCatalogue(subjects);
}
