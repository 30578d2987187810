import { readFile } from "node:fs/promises";
import { z } from "zod";
import { compileCatalogue } from "../src/catalogue/compile.ts";
import { loadCatalogue } from "../src/catalogue/load.ts";
import { loadSpecificationSources } from "../src/catalogue/load-sources.ts";
import type { CatalogueSnapshot } from "../src/catalogue/model.ts";
import { qualifications, examBoardIds } from "../src/catalogue/source-schema.ts";
import { createCatalogueSearch, searchResultTypes } from "../src/catalogue/search/index.ts";

/** The bar the labelled queries must clear; also asserted by the test suite. */
export const searchTargets = { precisionAt5: 0.8, meanReciprocalRank: 0.8 };

const searchQueriesSchema = z.object({
  queries: z
    .array(
      z.object({
        q: z.string().min(1).max(200),
        kind: z.string(),
        filters: z
          .object({
            qualification: z.enum(qualifications).optional(),
            examBoardId: z.enum(examBoardIds).optional(),
            subjectId: z.string().optional(),
            type: z.enum(searchResultTypes).optional(),
          })
          .optional(),
        relevant: z.array(z.string()).min(1),
      }),
    )
    .min(1),
});

export type SearchQueryCase = z.infer<typeof searchQueriesSchema>["queries"][number];

export interface SearchEvaluation {
  precisionAt5: number;
  meanReciprocalRank: number;
  queryCount: number;
  p50Ms: number;
  p95Ms: number;
  byKind: Map<string, { count: number; precisionAt5: number; meanReciprocalRank: number }>;
  misses: { q: string; relevant: string[]; got: string[] }[];
  /** Labelled ids that are not in the catalogue: a stale evaluation set, reported rather than scored. */
  unknownIds: string[];
}

export async function readSearchQueries(): Promise<SearchQueryCase[]> {
  const raw = await readFile(new URL("./data/search-queries.json", import.meta.url), "utf8");
  return searchQueriesSchema.parse(JSON.parse(raw)).queries;
}

function isKnown(snapshot: CatalogueSnapshot, id: string): boolean {
  return snapshot.subjectById.has(id) || snapshot.topicById.has(id) || snapshot.subtopicById.has(id);
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

/**
 * precision@5 = relevant results in the top 5 ÷ min(5, number labelled relevant), so a query with one right
 * answer can still score 1; MRR = mean of 1 / rank of the first relevant result (0 if none in the top 20).
 */
export function measureSearch(
  snapshot: CatalogueSnapshot,
  cases: readonly SearchQueryCase[],
): SearchEvaluation {
  const catalogueSearch = createCatalogueSearch(snapshot);
  const unknownIds = cases.flatMap((testCase) => testCase.relevant.filter((id) => !isKnown(snapshot, id)));
  const timings: number[] = [];
  const byKind = new Map<string, { count: number; precision: number; reciprocal: number }>();
  const misses: SearchEvaluation["misses"] = [];
  let precisionSum = 0;
  let reciprocalSum = 0;

  // One untimed pass first, so latency reflects a warm server rather than JIT compilation.
  for (const testCase of cases) catalogueSearch.search({ q: testCase.q, limit: 20, ...testCase.filters });
  for (const testCase of cases) {
    const started = performance.now();
    const results = catalogueSearch.search({ q: testCase.q, limit: 20, ...testCase.filters });
    timings.push(performance.now() - started);
    const relevant = new Set(testCase.relevant);
    const top5 = results.slice(0, 5).map((result) => result.id);
    const precision = top5.filter((id) => relevant.has(id)).length / Math.min(5, relevant.size);
    const firstRank = results.findIndex((result) => relevant.has(result.id));
    const reciprocal = firstRank < 0 ? 0 : 1 / (firstRank + 1);
    precisionSum += precision;
    reciprocalSum += reciprocal;
    const kind = byKind.get(testCase.kind) ?? { count: 0, precision: 0, reciprocal: 0 };
    byKind.set(testCase.kind, {
      count: kind.count + 1,
      precision: kind.precision + precision,
      reciprocal: kind.reciprocal + reciprocal,
    });
    if (reciprocal < 1) misses.push({ q: testCase.q, relevant: testCase.relevant, got: top5 });
  }

  timings.sort((a, b) => a - b);
  return {
    precisionAt5: precisionSum / cases.length,
    meanReciprocalRank: reciprocalSum / cases.length,
    queryCount: cases.length,
    p50Ms: percentile(timings, 0.5),
    p95Ms: percentile(timings, 0.95),
    byKind: new Map(
      [...byKind].map(([kind, totals]) => [
        kind,
        {
          count: totals.count,
          precisionAt5: totals.precision / totals.count,
          meanReciprocalRank: totals.reciprocal / totals.count,
        },
      ]),
    ),
    misses,
    unknownIds,
  };
}

/**
 * The catalogue restricted to the specifications the labels were written for. The labels list every satisfying
 * result among those specifications only; scored against the whole catalogue, an equally good subtopic from a
 * specification added later would count as a miss.
 */
export async function labelledCatalogue(cases: readonly SearchQueryCase[]): Promise<CatalogueSnapshot> {
  const { specifications } = await loadSpecificationSources();
  const labelled = new Set(cases.flatMap((testCase) => testCase.relevant.map((id) => id.split(".")[0])));
  return compileCatalogue(
    specifications.map(({ source }) => source).filter((source) => labelled.has(source.id)),
  );
}

export async function evaluateSearch(print: (line: string) => void): Promise<{ passed: boolean }> {
  const cases = await readSearchQueries();
  const [snapshot, whole] = await Promise.all([labelledCatalogue(cases), loadCatalogue()]);
  const result = measureSearch(snapshot, cases);
  const wholeResult = measureSearch(whole, cases);
  print(
    `catalogue search over the whole catalogue (${whole.subjects.length} subjects; labels cover ${snapshot.subjects.length}, ` +
      `so later subjects' equally good results count as misses): precision@5 ${wholeResult.precisionAt5.toFixed(3)}, ` +
      `MRR ${wholeResult.meanReciprocalRank.toFixed(3)} — for information, no target`,
  );
  const figure = (value: number) => value.toFixed(3);
  print(`catalogue search: ${result.queryCount} labelled queries`);
  print(
    `  precision@5 ${figure(result.precisionAt5)} (target ≥ ${searchTargets.precisionAt5}), ` +
      `MRR ${figure(result.meanReciprocalRank)} (target ≥ ${searchTargets.meanReciprocalRank})`,
  );
  print(`  latency p50 ${result.p50Ms.toFixed(3)} ms, p95 ${result.p95Ms.toFixed(3)} ms`);
  for (const [kind, figures] of [...result.byKind].sort(([a], [b]) => a.localeCompare(b))) {
    print(
      `  ${kind.padEnd(9)} n=${String(figures.count).padStart(3)}  precision@5 ${figure(figures.precisionAt5)}  MRR ${figure(figures.meanReciprocalRank)}`,
    );
  }
  for (const miss of result.misses) {
    print(
      `  not first: "${miss.q}" expected one of [${miss.relevant.join(", ")}], got [${miss.got.join(", ")}]`,
    );
  }
  if (result.unknownIds.length > 0)
    print(`  labelled ids not in the catalogue: ${result.unknownIds.join(", ")}`);
  const passed =
    result.unknownIds.length === 0 &&
    result.precisionAt5 >= searchTargets.precisionAt5 &&
    result.meanReciprocalRank >= searchTargets.meanReciprocalRank;
  print(`  ${passed ? "PASS" : "FAIL"}`);
  return { passed };
}
