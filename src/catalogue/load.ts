import { checkSpecifications } from "./check.ts";
import { compileCatalogue } from "./compile.ts";
import { loadSpecificationSources } from "./load-sources.ts";
import type { CatalogueSnapshot } from "./model.ts";

export class CatalogueInvalidError extends Error {}

/** Loads, validates and compiles the catalogue; refuses to start on invalid content. */
export async function loadCatalogue(directory?: string): Promise<CatalogueSnapshot> {
  const { specifications, problems } = await loadSpecificationSources(directory);
  problems.push(...checkSpecifications(specifications));
  if (problems.length > 0) {
    const first = problems[0]!;
    throw new CatalogueInvalidError(
      `catalogue invalid (${problems.length} problem(s)); first: ${first.file} ${first.path}: ${first.message} — run "syllabi catalogue check"`,
    );
  }
  return compileCatalogue(specifications.map(({ source }) => source));
}
