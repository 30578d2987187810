import { spawn } from "node:child_process";
import { loadCatalogue } from "../src/catalogue/load.ts";
import { createCatalogueSearch } from "../src/catalogue/search/index.ts";
import { createOfflineAligner } from "../src/align/index.ts";
import { offlineLatencyOnLargestSubject, readAlignTexts } from "../evaluation/align.ts";
import type { BenchRow } from "./report.ts";
import { repositoryRoot } from "./processes.ts";

/**
 * Run as its own process with --expose-gc: heap held by the compiled catalogue snapshot, its search index and
 * the align index, measured after full collections so only what stays reachable counts; then the offline
 * aligner's own latency, without HTTP or the ledger.
 */
async function ensureSnapshotCached(): Promise<void> {
  await loadCatalogue();
}

async function measureInThisProcess(): Promise<void> {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error("run with --expose-gc");
  const heap = () => {
    collect();
    collect();
    return process.memoryUsage().heapUsed;
  };
  // What a start-up finds when nothing changed since the last: the compiled snapshot read back from its cache
  // (written first if it is missing), as the service then holds it.
  await ensureSnapshotCached();
  let before = heap();
  let started = performance.now();
  const snapshot = await loadCatalogue();
  const cachedLoadMs = performance.now() - started;
  const snapshotBytes = heap() - before;
  // Every file parsed, validated and compiled, as on a first start or after a change.
  before = heap();
  started = performance.now();
  let compiled: unknown = await loadCatalogue(undefined, { cachePath: null });
  const loadMs = performance.now() - started;
  const compiledBytes = heap() - before;
  compiled = null;
  const afterSnapshot = heap();
  const search = createCatalogueSearch(snapshot);
  const aligner = createOfflineAligner(snapshot);
  const afterIndexes = heap();
  const alignLatency = await offlineLatencyOnLargestSubject(snapshot, await readAlignTexts());
  const subtopics = snapshot.subjects.reduce(
    (sum, subject) => sum + subject.topics.reduce((count, topic) => count + topic.subtopics.length, 0),
    0,
  );
  process.stdout.write(
    JSON.stringify({
      subjects: snapshot.subjects.length,
      subtopics,
      loadMs,
      cachedLoadMs,
      compiledBytes,
      snapshotBytes,
      indexBytes: afterIndexes - afterSnapshot,
      alignLatency,
      // Keep both reachable until measured.
      kept: [typeof search, typeof aligner, compiled].length,
    }),
  );
}

export async function benchInProcess(): Promise<BenchRow[]> {
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--expose-gc", "--import", "tsx", "bench/in-process.ts", "measure"],
      {
        cwd: repositoryRoot,
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    child.on("exit", (code) =>
      code === 0 ? resolve(text) : reject(new Error(`in-process figures: exit ${code}`)),
    );
  });
  const figures = JSON.parse(output) as {
    subjects: number;
    subtopics: number;
    loadMs: number;
    cachedLoadMs: number;
    compiledBytes: number;
    snapshotBytes: number;
    indexBytes: number;
    alignLatency: { subjectId: string; subtopicCount: number; p50Ms: number };
  };
  const what = `${figures.subjects} subjects, ${figures.subtopics} subtopics`;
  return [
    {
      case: "catalogue",
      measure: `compile from YAML (${what})`,
      unit: "ms",
      service: figures.loadMs,
      baseline: null,
      baselineName: "",
    },
    {
      case: "catalogue",
      measure: "read back the compiled snapshot from its cache (a start-up with nothing changed)",
      unit: "ms",
      service: figures.cachedLoadMs,
      baseline: null,
      baselineName: "",
    },
    {
      case: "catalogue",
      measure: "heap held by the snapshot (read back, as the service holds it)",
      unit: "MB",
      service: figures.snapshotBytes / 1024 / 1024,
      baseline: null,
      baselineName: "",
    },
    {
      case: "catalogue",
      measure: "heap held by the snapshot just compiled from YAML",
      unit: "MB",
      service: figures.compiledBytes / 1024 / 1024,
      baseline: null,
      baselineName: "",
    },
    {
      case: "catalogue",
      measure: "heap held by the search and align indexes",
      unit: "MB",
      service: figures.indexBytes / 1024 / 1024,
      baseline: null,
      baselineName: "",
    },
    {
      case: "align engine (offline), in process",
      measure: `p50 on the largest subject (${figures.alignLatency.subtopicCount} subtopics), every labelled text`,
      unit: "ms",
      service: figures.alignLatency.p50Ms,
      baseline: null,
      baselineName: "",
      target: { maximum: 10 },
    },
  ];
}

if (process.argv[1] === import.meta.filename && process.argv[2] === "measure") await measureInThisProcess();
