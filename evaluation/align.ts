import { readFile } from "node:fs/promises";
import { z } from "zod";
import {
  createEmbeddingAligner,
  createMemoryEmbeddingCache,
  createOfflineAligner,
  type Aligner,
  type ConfiguredEmbeddingModel,
  type EmbeddingCache,
} from "../src/align/index.ts";
import { loadCatalogue } from "../src/catalogue/load.ts";
import type { CatalogueSnapshot } from "../src/catalogue/model.ts";

/** The bar the labelled texts must clear (top-3 accuracy); the offline target is also asserted by the tests. */
export const alignTargets = { offlineTop3: 0.8, embeddingTop3: 0.8 };

export const alignEngineNames = ["offline", "embedding"] as const;
export type AlignEngineName = (typeof alignEngineNames)[number];

export interface AlignEvaluationOptions {
  /** Which engines to measure; default both, the embedding engine only when a model is given. */
  engines?: readonly AlignEngineName[];
  /** The configured embedding model, if any (the composition root decides; nothing here reads the environment). */
  embeddingModel?: ConfiguredEmbeddingModel | null;
  /** Where subtopic embeddings are kept between runs; an in-memory cache by default. */
  embeddingCache?: EmbeddingCache;
}

const alignTextsSchema = z.object({
  texts: z
    .array(
      z.object({
        subjectId: z.string(),
        style: z.string(),
        expected: z.array(z.string()).min(1),
        text: z.string().min(1).max(20_000),
      }),
    )
    .min(1),
});

export type AlignTextCase = z.infer<typeof alignTextsSchema>["texts"][number];

export interface AlignEvaluation {
  engine: string;
  textCount: number;
  top1: number;
  top3: number;
  p50Ms: number;
  byStyle: Map<string, { count: number; top1: number; top3: number }>;
  misses: { subjectId: string; text: string; expected: string[]; got: string[] }[];
  /** Subjects or expected subtopics that are not in the catalogue: a stale evaluation set. */
  unknownIds: string[];
}

export async function readAlignTexts(): Promise<AlignTextCase[]> {
  const raw = await readFile(new URL("./data/align-texts.json", import.meta.url), "utf8");
  return alignTextsSchema.parse(JSON.parse(raw)).texts;
}

function unknownIdsOf(snapshot: CatalogueSnapshot, cases: readonly AlignTextCase[]): string[] {
  const unknown = new Set<string>();
  for (const testCase of cases) {
    if (!snapshot.subjectById.has(testCase.subjectId)) unknown.add(testCase.subjectId);
    for (const id of testCase.expected) {
      if (snapshot.subtopicById.get(id)?.subjectId !== testCase.subjectId) unknown.add(id);
    }
  }
  return [...unknown];
}

/** Top-1: the first match is an expected subtopic. Top-3: any of the first three is. */
export async function measureAligner(
  snapshot: CatalogueSnapshot,
  aligner: Aligner,
  cases: readonly AlignTextCase[],
): Promise<AlignEvaluation> {
  const timings: number[] = [];
  const byStyle = new Map<string, { count: number; top1: number; top3: number }>();
  const misses: AlignEvaluation["misses"] = [];
  let top1 = 0;
  let top3 = 0;
  for (const testCase of cases) {
    const started = performance.now();
    const matches = await aligner.align({ subjectId: testCase.subjectId, text: testCase.text, limit: 3 });
    timings.push(performance.now() - started);
    const expected = new Set(testCase.expected);
    const got = matches.map((match) => match.subtopicId);
    const hit1 = got[0] !== undefined && expected.has(got[0]) ? 1 : 0;
    const hit3 = got.some((id) => expected.has(id)) ? 1 : 0;
    top1 += hit1;
    top3 += hit3;
    const style = byStyle.get(testCase.style) ?? { count: 0, top1: 0, top3: 0 };
    byStyle.set(testCase.style, { count: style.count + 1, top1: style.top1 + hit1, top3: style.top3 + hit3 });
    if (!hit1) {
      misses.push({ subjectId: testCase.subjectId, text: testCase.text, expected: testCase.expected, got });
    }
  }
  timings.sort((a, b) => a - b);
  return {
    engine: aligner.engine,
    textCount: cases.length,
    top1: top1 / cases.length,
    top3: top3 / cases.length,
    p50Ms: timings[Math.floor(timings.length / 2)] ?? 0,
    byStyle: new Map(
      [...byStyle].map(([style, totals]) => [
        style,
        { count: totals.count, top1: totals.top1 / totals.count, top3: totals.top3 / totals.count },
      ]),
    ),
    misses,
    unknownIds: unknownIdsOf(snapshot, cases),
  };
}

/** Median latency of the offline aligner on the subject with the most subtopics, over long and short texts. */
export async function offlineLatencyOnLargestSubject(
  snapshot: CatalogueSnapshot,
  cases: readonly AlignTextCase[],
): Promise<{ subjectId: string; subtopicCount: number; p50Ms: number }> {
  const sizes = snapshot.subjects.map((subject) => ({
    subjectId: subject.id,
    subtopicCount: subject.topics.reduce((sum, topic) => sum + topic.subtopics.length, 0),
  }));
  const largest = sizes.reduce((best, size) => (size.subtopicCount > best.subtopicCount ? size : best));
  const aligner = createOfflineAligner(snapshot);
  const texts = cases.map((testCase) => testCase.text);
  // Warm up once, then time every labelled text (from every subject) against the largest subject.
  for (const text of texts) await aligner.align({ subjectId: largest.subjectId, text, limit: 5 });
  const timings: number[] = [];
  for (const text of texts) {
    const started = performance.now();
    await aligner.align({ subjectId: largest.subjectId, text, limit: 5 });
    timings.push(performance.now() - started);
  }
  timings.sort((a, b) => a - b);
  return { ...largest, p50Ms: timings[Math.floor(timings.length / 2)] ?? 0 };
}

function printEvaluation(print: (line: string) => void, result: AlignEvaluation, target: number): boolean {
  const figure = (value: number) => value.toFixed(3);
  print(
    `  ${result.engine}: top-1 ${figure(result.top1)}, top-3 ${figure(result.top3)} (target ≥ ${target}), ` +
      `p50 ${result.p50Ms.toFixed(2)} ms over ${result.textCount} texts`,
  );
  for (const [style, figures] of [...result.byStyle].sort(([a], [b]) => a.localeCompare(b))) {
    print(
      `    ${style.padEnd(14)} n=${String(figures.count).padStart(3)}  top-1 ${figure(figures.top1)}  top-3 ${figure(figures.top3)}`,
    );
  }
  for (const miss of result.misses) {
    const excerpt = miss.text.replace(/\s+/g, " ").slice(0, 70);
    print(
      `    not first: "${excerpt}…" expected [${miss.expected.join(", ")}], got [${miss.got.join(", ")}]`,
    );
  }
  if (result.unknownIds.length > 0)
    print(`    labelled ids not in the catalogue: ${result.unknownIds.join(", ")}`);
  return result.unknownIds.length === 0 && result.top3 >= target;
}

export async function evaluateAlign(
  print: (line: string) => void,
  options: AlignEvaluationOptions = {},
): Promise<{ passed: boolean }> {
  const engines = options.engines ?? alignEngineNames;
  const [snapshot, cases] = await Promise.all([loadCatalogue(), readAlignTexts()]);
  print(`alignment: ${cases.length} labelled teacher texts`);
  let passed = true;
  const offline = createOfflineAligner(snapshot);

  if (engines.includes("offline")) {
    passed =
      printEvaluation(print, await measureAligner(snapshot, offline, cases), alignTargets.offlineTop3) &&
      passed;
    const latency = await offlineLatencyOnLargestSubject(snapshot, cases);
    print(
      `  offline latency on the largest subject (${latency.subjectId}, ${latency.subtopicCount} subtopics): ` +
        `p50 ${latency.p50Ms.toFixed(2)} ms`,
    );
  }

  if (engines.includes("embedding")) {
    if (!options.embeddingModel) {
      print("  embedding: skipped (no embedding model configured)");
    } else {
      const aligner = createEmbeddingAligner({
        snapshot,
        embeddingModel: options.embeddingModel,
        cache: options.embeddingCache ?? createMemoryEmbeddingCache(),
        lexical: offline,
      });
      passed =
        printEvaluation(print, await measureAligner(snapshot, aligner, cases), alignTargets.embeddingTop3) &&
        passed;
    }
  }
  print(`  ${passed ? "PASS" : "FAIL"}`);
  return { passed };
}
