import { readAlignTexts } from "../evaluation/align.ts";
import { alternate, throughputRows, type Settings } from "./catalogue.ts";
import {
  measureLatency,
  measureThroughput,
  requestOnce,
  timeToFirstLine,
  type HttpTarget,
  type LoadResult,
  type RequestSpec,
} from "./http-load.ts";
import { median, type BenchRow } from "./report.ts";
import type { StartedProcess } from "./processes.ts";

const jsonHeaders = (key: string) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });

export interface PaidRequests {
  align: { spec: RequestSpec; name: string }[];
  chat: RequestSpec;
  bodies: Map<string, string>;
}

/** Align requests from the labelled teacher texts and one genie chat turn, with the service's answers. */
export async function preparePaid(target: HttpTarget, key: string): Promise<PaidRequests> {
  const texts = (await readAlignTexts()).slice(0, 30);
  const align = texts.map((text, index) => ({
    name: `align-${index}.json`,
    spec: {
      method: "POST" as const,
      path: "/api/v1/align",
      headers: jsonHeaders(key),
      body: JSON.stringify({ subjectId: text.subjectId, text: text.text, limit: 5 }),
    },
  }));
  const bodies = new Map<string, string>();
  for (const request of align) {
    const response = await requestOnce(target, request.spec);
    if (response.status !== 200) throw new Error(`align: ${response.status} ${response.body.toString()}`);
    bodies.set(request.name, response.body.toString("utf8"));
  }

  const subjects = await requestOnce(target, {
    method: "GET",
    path: "/api/v1/subjects",
    headers: { authorization: `Bearer ${key}` },
  });
  const firstSubject = (
    JSON.parse(subjects.body.toString("utf8")) as { subjects: { id: string; genie: { shortName: string } }[] }
  ).subjects[0]!;
  const tree = await requestOnce(target, {
    method: "GET",
    path: `/api/v1/subjects/${firstSubject.id}/tree`,
    headers: { authorization: `Bearer ${key}` },
  });
  const subtopic = (JSON.parse(tree.body.toString("utf8")) as { topics: { subtopics: { name: string }[] }[] })
    .topics[0]!.subtopics[0]!;
  const chat: RequestSpec = {
    method: "POST",
    path: `/api/v1/genies/${firstSubject.genie.shortName}/chat`,
    headers: jsonHeaders(key),
    body: JSON.stringify({
      messages: [{ role: "user", content: `Can you explain ${subtopic.name} to me?` }],
    }),
  };
  const stream = await requestOnce(target, chat);
  if (stream.status !== 200) throw new Error(`chat: ${stream.status} ${stream.body.toString()}`);
  bodies.set("chat.ndjson", stream.body.toString("utf8"));
  return { align, chat, bodies };
}

/** Paid align latency and throughput on one service (PGlite or PostgreSQL) against the echoing baseline. */
export async function benchAlign(options: {
  label: string;
  service: StartedProcess;
  baseline: StartedProcess;
  requests: PaidRequests;
  settings: Settings;
}): Promise<BenchRow[]> {
  const { service, baseline, requests, settings } = options;
  const serviceSpecs = requests.align.map((request) => request.spec);
  const baselineSpecs = requests.align.map((request) => ({
    method: "POST" as const,
    path: `/echo/${request.name}`,
    headers: { "content-type": "application/json" },
    body: request.spec.body!,
  }));
  const rounds = { warmupRounds: 1, rounds: settings.latencyRounds };
  const latency = await alternate(
    1,
    { server: service, run: () => measureLatency(service.target, serviceSpecs, rounds) },
    { server: baseline, run: () => measureLatency(baseline.target, baselineSpecs, rounds) },
  );
  const load = {
    // The billing issue's measure: charges per second with 50 callers at once, on each driver.
    connections: 50,
    durationMs: settings.durationMs,
    warmupMs: settings.warmupMs,
  };
  const throughput = await alternate(
    Math.min(2, settings.rounds),
    {
      server: service,
      run: () =>
        measureThroughput(service.target, (index) => serviceSpecs[index % serviceSpecs.length]!, load),
    },
    {
      server: baseline,
      run: () =>
        measureThroughput(baseline.target, (index) => baselineSpecs[index % baselineSpecs.length]!, load),
    },
  );
  const baselineName = "bare Fastify, parses body, same bytes";
  const rows: BenchRow[] = [];
  for (const [measure, pick] of [
    ["p50", (run: LoadResult) => run.p50Ms],
    ["p95", (run: LoadResult) => run.p95Ms],
  ] as const) {
    rows.push({
      case: `POST /align, 1p (${options.label})`,
      measure: `${measure}, ${serviceSpecs.length} teacher texts × ${settings.latencyRounds}, one connection`,
      unit: "ms",
      service: pick(latency.service[0]!),
      baseline: pick(latency.baseline[0]!),
      baselineName,
    });
  }
  rows.push(
    ...throughputRows(
      `POST /align, 1p (${options.label})`,
      `${load.connections} concurrent callers, one charge each`,
      throughput,
      baselineName,
    ),
  );
  return rows;
}

/** Time to the first NDJSON line of a streamed genie chat on the offline engine, fresh connection each time. */
export async function benchChat(options: {
  service: StartedProcess;
  baseline: StartedProcess;
  requests: PaidRequests;
  samples: number;
}): Promise<BenchRow[]> {
  const { service, baseline, requests } = options;
  const baselineSpec: RequestSpec = {
    method: "POST",
    path: "/stream/chat.ndjson",
    headers: { "content-type": "application/json" },
    body: requests.chat.body!,
  };
  const serviceRuns: { firstLineMs: number; totalMs: number }[] = [];
  const baselineRuns: { firstLineMs: number; totalMs: number }[] = [];
  // One untimed call each, then alternate.
  await timeToFirstLine(service.target, requests.chat);
  await timeToFirstLine(baseline.target, baselineSpec);
  for (let sample = 0; sample < options.samples; sample += 1) {
    const served = await timeToFirstLine(service.target, requests.chat);
    if (served.status !== 200 || !served.firstLine.includes('"start"'))
      throw new Error(`chat: ${served.status} ${served.firstLine}`);
    serviceRuns.push(served);
    baselineRuns.push(await timeToFirstLine(baseline.target, baselineSpec));
  }
  const baselineName = "bare Fastify streaming the same lines";
  return [
    {
      case: "genie chat NDJSON, 4p (offline engine)",
      measure: `time to first line, median of ${options.samples}`,
      unit: "ms",
      service: median(serviceRuns.map((run) => run.firstLineMs)),
      baseline: median(baselineRuns.map((run) => run.firstLineMs)),
      baselineName,
    },
    {
      case: "genie chat NDJSON, 4p (offline engine)",
      measure: `time to last line (done), median of ${options.samples}`,
      unit: "ms",
      service: median(serviceRuns.map((run) => run.totalMs)),
      baseline: median(baselineRuns.map((run) => run.totalMs)),
      baselineName,
    },
  ];
}
