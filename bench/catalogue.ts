import { readSearchQueries } from "../evaluation/search.ts";
import {
  measureLatency,
  measureThroughput,
  requestOnce,
  type HttpTarget,
  type LoadResult,
  type RequestSpec,
} from "./http-load.ts";
import { median, type BenchRow } from "./report.ts";
import type { StartedProcess } from "./processes.ts";

export interface Settings {
  connections: number;
  durationMs: number;
  warmupMs: number;
  rounds: number;
  latencyRounds: number;
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

async function bodyOf(target: HttpTarget, spec: RequestSpec): Promise<string> {
  const response = await requestOnce(target, spec);
  if (response.status !== 200)
    throw new Error(`${spec.path}: ${response.status} ${response.body.toString()}`);
  return response.body.toString("utf8");
}

export type MeasuredLoad = LoadResult & {
  /** CPU time the server process used per response, warm-up included: steady under a neighbour's load. */
  cpuUsPerRequest: number;
};

async function withCpu(server: StartedProcess, run: () => Promise<LoadResult>): Promise<MeasuredLoad> {
  const before = await server.cpuMs();
  const result = await run();
  const after = await server.cpuMs();
  const cpuUsPerRequest =
    before === null || after === null || result.total === 0
      ? Number.NaN
      : ((after - before) * 1000) / result.total;
  return { ...result, cpuUsPerRequest };
}

/** Service and baseline take turns, so a neighbour's burst of CPU use hurts both alike. */
export async function alternate(
  rounds: number,
  service: { server: StartedProcess; run: () => Promise<LoadResult> },
  baseline: { server: StartedProcess; run: () => Promise<LoadResult> },
): Promise<{ service: MeasuredLoad[]; baseline: MeasuredLoad[] }> {
  const results = { service: [] as MeasuredLoad[], baseline: [] as MeasuredLoad[] };
  const runService = async () => results.service.push(await withCpu(service.server, service.run));
  const runBaseline = async () => results.baseline.push(await withCpu(baseline.server, baseline.run));
  for (let round = 0; round < rounds; round += 1) {
    if (round % 2 === 0) {
      await runService();
      await runBaseline();
    } else {
      await runBaseline();
      await runService();
    }
  }
  for (const run of [...results.service, ...results.baseline]) {
    if (run.unexpected > 0)
      throw new Error(
        `${run.unexpected} responses had an unexpected status: ${JSON.stringify(run.statuses)}`,
      );
  }
  return results;
}

/** Throughput beside the server CPU each response cost, both as rows. */
export function throughputRows(
  caseName: string,
  measure: string,
  results: { service: MeasuredLoad[]; baseline: MeasuredLoad[] },
  baselineName: string,
  minimumRatio?: number,
): BenchRow[] {
  return [
    {
      case: caseName,
      measure: `${measure}: throughput`,
      unit: "req/s",
      service: median(results.service.map((run) => run.requestsPerSecond)),
      baseline: median(results.baseline.map((run) => run.requestsPerSecond)),
      baselineName,
      ...(minimumRatio === undefined ? {} : { target: { minimumRatio } }),
    },
    {
      case: caseName,
      measure: `${measure}: server CPU per request`,
      unit: "µs",
      service: median(results.service.map((run) => run.cpuUsPerRequest)),
      baseline: median(results.baseline.map((run) => run.cpuUsPerRequest)),
      baselineName,
    },
  ];
}

export interface CatalogueBodies {
  /** Body name → exact bytes the service sent, for the baseline to send back. */
  bodies: Map<string, string>;
}

/** What the catalogue cases request from the service; collected before the baseline starts. */
export async function prepareCatalogue(
  service: StartedProcess,
  keys: { subjects: string; tree: string; search: string },
) {
  const subjectsJson = await bodyOf(service.target, {
    method: "GET",
    path: "/api/v1/subjects",
    headers: bearer(keys.subjects),
  });
  const subjects = (JSON.parse(subjectsJson) as { subjects: { id: string }[] }).subjects;
  // The largest tree by bytes: the heaviest data response the API sends.
  let tree = { path: "", json: "" };
  for (const subject of subjects) {
    const path = `/api/v1/subjects/${subject.id}/tree`;
    const json = await bodyOf(service.target, { method: "GET", path, headers: bearer(keys.tree) });
    if (json.length > tree.json.length) tree = { path, json };
  }
  const queries = (await readSearchQueries()).slice(0, 40);
  const searches: { path: string; json: string }[] = [];
  for (const query of queries) {
    const path = `/api/v1/search?q=${encodeURIComponent(query.q)}&limit=20`;
    searches.push({
      path,
      json: await bodyOf(service.target, { method: "GET", path, headers: bearer(keys.search) }),
    });
  }
  const bodies = new Map<string, string>([
    ["subjects.json", subjectsJson],
    ["tree.json", tree.json],
    ...searches.map((search, index): [string, string] => [`search-${index}.json`, search.json]),
  ]);
  return { bodies, treePath: tree.path, subjectCount: subjects.length, searches };
}

/** Keys a data-endpoint round spreads its requests over (see `roundKeys`). */
export const keysPerRound = 4;

export async function benchCatalogue(options: {
  service: StartedProcess;
  baseline: StartedProcess;
  keys: { subjects: string; tree: string; search: string };
  /**
   * Fresh keys for each throughput round, taken in turn request by request (`keysPerRound` a round and case). The
   * general limit is raised to its maximum, 100,000 a minute per key, which one key can pass within a single round
   * on a fast machine (over 20,000 requests a second); spread over several keys, the limiter still counts every
   * request but never refuses one.
   */
  roundKeys: string[];
  prepared: Awaited<ReturnType<typeof prepareCatalogue>>;
  settings: Settings;
}): Promise<BenchRow[]> {
  const { service, baseline, keys, roundKeys, prepared, settings } = options;
  if (roundKeys.length < settings.rounds * 2 * keysPerRound)
    throw new Error(
      `benchCatalogue needs ${settings.rounds * 2 * keysPerRound} round keys, got ${roundKeys.length}`,
    );
  let nextKey = 0;
  const load = {
    connections: settings.connections,
    durationMs: settings.durationMs,
    warmupMs: settings.warmupMs,
  };
  const rows: BenchRow[] = [];

  const throughputCases = [
    {
      name: `GET /subjects (${prepared.subjectCount} subjects, ${(prepared.bodies.get("subjects.json")!.length / 1024).toFixed(1)} KiB)`,
      spec: { method: "GET" as const, path: "/api/v1/subjects" },
      baselinePath: "/static/subjects.json",
    },
    {
      name: `GET largest tree (${(prepared.bodies.get("tree.json")!.length / 1024).toFixed(1)} KiB)`,
      spec: { method: "GET" as const, path: prepared.treePath },
      baselinePath: "/static/tree.json",
    },
  ];
  for (const testCase of throughputCases) {
    const results = await alternate(
      settings.rounds,
      {
        server: service,
        run: () =>
          measureThroughput(
            service.target,
            roundKeys
              .slice(nextKey, (nextKey += keysPerRound))
              .map((key) => ({ ...testCase.spec, headers: bearer(key) })),
            load,
          ),
      },
      {
        server: baseline,
        run: () => measureThroughput(baseline.target, { method: "GET", path: testCase.baselinePath }, load),
      },
    );
    rows.push(
      ...throughputRows(
        "data endpoint",
        `${testCase.name}, ${settings.connections} connections`,
        results,
        "bare Fastify, same bytes",
        0.8,
      ),
    );
  }

  const searchSpecs = prepared.searches.map((search) => ({
    method: "GET" as const,
    path: search.path,
    headers: bearer(keys.search),
  }));
  const baselineSpecs = prepared.searches.map((_, index) => ({
    method: "GET" as const,
    path: `/static/search-${index}.json`,
  }));
  const latency = { warmupRounds: 1, rounds: settings.latencyRounds };
  const search = await alternate(
    1,
    { server: service, run: () => measureLatency(service.target, searchSpecs, latency) },
    { server: baseline, run: () => measureLatency(baseline.target, baselineSpecs, latency) },
  );
  const [serviceSearch] = search.service;
  const [baselineSearch] = search.baseline;
  for (const [measure, pick] of [
    ["p50", (run: LoadResult) => run.p50Ms],
    ["p95", (run: LoadResult) => run.p95Ms],
  ] as const) {
    rows.push({
      case: "search latency",
      measure: `${measure}, ${searchSpecs.length} labelled queries × ${settings.latencyRounds}, one connection`,
      unit: "ms",
      service: pick(serviceSearch!),
      baseline: pick(baselineSearch!),
      baselineName: "bare Fastify, same bytes",
    });
  }
  return rows;
}
